//! The forest plot: one row per benchmark, its median speedup as a point and the median protocol's
//! interval as a line on one logarithmic axis shared by every row, 1x marked and the equivalence band
//! [1/(1 + ε), 1 + ε] shaded, coloured by verdict, regressions on top.
//!
//! It is an HTML table whose rows each hold a small inline SVG strip on the same scale, rather than one big
//! SVG: the names stay real text that wraps on a phone, and the header (the axis) stays in view while a
//! long suite scrolls. An interval that leaves the axis (or is infinite) ends in an arrow at the edge and
//! says so beside the figures; a benchmark without an interval says why.

use std::fmt::Write as _;

use super::svg::{LogScale, escape, line, px, ratio_label, shorten, text};
use crate::protocol::{Analysis, BenchmarkAnalysis, Verdict};
use crate::report::format;

/// The strip's view box: width and height.
const WIDTH: f64 = 400.0;
const HEIGHT: f64 = 22.0;
const LEFT: f64 = 10.0;
const RIGHT: f64 = WIDTH - 10.0;
/// The axis spans at most 1/100x to 100x; beyond, intervals end in arrows.
const LIMIT: f64 = 100.0;
/// Characters of a name shown in a row (the whole name is in its tooltip).
const NAME_CHARS: usize = 80;

/// The order of the rows: slower first (the largest regression on top), then inconclusive, unchanged and
/// faster, each by median speedup, smallest first; a speedup that is not a number goes last in its group.
pub fn order(analysis: &Analysis) -> Vec<usize> {
    let group = |v: Verdict| match v {
        Verdict::Slower => 0,
        Verdict::Inconclusive => 1,
        Verdict::Unchanged => 2,
        Verdict::Faster => 3,
    };
    let mut order: Vec<usize> = (0..analysis.benchmarks.len()).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (&analysis.benchmarks[a], &analysis.benchmarks[b]);
        let key = |x: &BenchmarkAnalysis| {
            let s = x.speedup.median;
            (
                group(x.verdict),
                !s.is_finite(),
                if s.is_finite() { s } else { 0.0 },
            )
        };
        let (ka, kb) = (key(a), key(b));
        (ka.0, ka.1).cmp(&(kb.0, kb.1)).then(ka.2.total_cmp(&kb.2))
    });
    order
}

/// The CSS class of a verdict's colour.
pub fn verdict_class(v: Verdict) -> &'static str {
    match v {
        Verdict::Faster => "v-faster",
        Verdict::Slower => "v-slower",
        Verdict::Unchanged => "v-unchanged",
        Verdict::Inconclusive => "v-inconclusive",
    }
}

/// The shared scale of every row: every finite estimate and interval bound, the equivalence band and 1.
fn scale(analysis: &Analysis, band: (f64, f64)) -> LogScale {
    let values = crate::report::glyph::drawn_speedups(analysis);
    LogScale::around_one(values.chain([band.0, band.1]), 1.08, LIMIT, LEFT, RIGHT)
}

/// The equivalence band of the analysis (ε of its first benchmark: one `--equivalence` for all).
fn band(analysis: &Analysis) -> (f64, f64) {
    let eps = analysis
        .benchmarks
        .first()
        .map_or(2.0, |b| b.equivalence.margin_pct)
        / 100.0;
    (1.0 / (1.0 + eps), 1.0 + eps)
}

/// The forest plot as an HTML table, rows in `order`.
pub fn forest(analysis: &Analysis, order: &[usize]) -> String {
    let band = band(analysis);
    let scale = scale(analysis, band);
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<table class="forest" data-plot="forest"><thead><tr><th scope="col">Benchmark</th><th scope="col" class="strip">{}</th><th scope="col" class="figures">Speedup [interval]</th></tr></thead><tbody>"#,
        axis(&scale)
    );
    for &i in order {
        let b = &analysis.benchmarks[i];
        let class = verdict_class(b.verdict);
        let _ = write!(
            out,
            r#"<tr class="{class}"><th scope="row" title="{}">{}</th><td class="strip">{}</td><td class="figures">{}</td></tr>"#,
            escape(&b.name),
            escape(&shorten(&b.name, NAME_CHARS)),
            strip(b, &scale, band),
            figures(b, &scale)
        );
    }
    out.push_str("</tbody></table>");
    out
}

/// The axis strip of the header: ticks labelled `0.9x`, `1x`, `1.1x`.
fn axis(scale: &LogScale) -> String {
    let mut out = format!(
        r#"<svg class="axis" viewBox="0 0 {} 24" role="img" aria-label="speedup, logarithmic axis">"#,
        px(WIDTH)
    );
    for t in scale.ticks(44.0) {
        if let Some(x) = scale.x(t) {
            line(&mut out, (x, 18.0), (x, 24.0), "tick");
            text(&mut out, x, 14.0, "middle", "tick-label", &ratio_label(t));
        }
    }
    out.push_str("</svg>");
    out
}

/// One benchmark's strip: the band, the grid, 1x, the interval and the point.
fn strip(b: &BenchmarkAnalysis, scale: &LogScale, band: (f64, f64)) -> String {
    let mid = HEIGHT / 2.0;
    let mut out = format!(
        r#"<svg viewBox="0 0 {} {}" role="img" aria-label="{}">"#,
        px(WIDTH),
        px(HEIGHT),
        escape(&format!(
            "{}: {}",
            b.verdict.as_str(),
            format::speedup_with_interval(b.speedup.median, b.median_test.speedup_interval)
        ))
    );
    if let (Some(lo), Some(hi)) = (scale.x(band.0), scale.x(band.1)) {
        let _ = write!(
            out,
            r#"<rect class="band" x="{}" y="0" width="{}" height="{}"/>"#,
            px(lo),
            px(hi - lo),
            px(HEIGHT)
        );
    }
    if let Some(x) = scale.x(1.0) {
        line(&mut out, (x, 0.0), (x, HEIGHT), "one");
    }
    if let Some((lo, hi)) = b.median_test.speedup_interval {
        let end = |v: f64, edge: f64| {
            if v.is_nan() {
                None
            } else {
                Some(scale.x(v).unwrap_or(edge))
            }
        };
        if let (Some(x1), Some(x2)) = (end(lo, LEFT), end(hi, RIGHT)) {
            line(&mut out, (x1, mid), (x2, mid), "ci");
            for (v, x, dir) in [(lo, x1, -1.0), (hi, x2, 1.0)] {
                if scale.outside(v) {
                    arrow(&mut out, x, mid, dir);
                } else {
                    line(&mut out, (x, mid - 4.0), (x, mid + 4.0), "ci");
                }
            }
        }
    }
    if let Some(x) = format::finite(b.speedup.median).and_then(|s| scale.x(s)) {
        let _ = write!(
            out,
            r#"<circle class="point" cx="{}" cy="{}" r="4.5"/>"#,
            px(x),
            px(mid)
        );
    }
    out.push_str("</svg>");
    out
}

/// A small arrow head at (x, y) pointing left (-1) or right (1): the interval goes on past the axis.
fn arrow(out: &mut String, x: f64, y: f64, dir: f64) {
    let _ = write!(
        out,
        r#"<path class="arrow" d="M{} {}L{} {}L{} {}Z"/>"#,
        px(x + dir * 6.0),
        px(y),
        px(x),
        px(y - 4.5),
        px(x),
        px(y + 4.5)
    );
}

/// The figures beside a strip, and why part of the picture is missing when it is.
fn figures(b: &BenchmarkAnalysis, scale: &LogScale) -> String {
    let interval = b.median_test.speedup_interval;
    let mut out = escape(&format::speedup_with_interval(b.speedup.median, interval));
    let note = match interval {
        None => Some("no interval: too few runs or the test could not apply".to_string()),
        Some((lo, hi)) if !(lo.is_finite() && hi.is_finite()) => {
            Some("the interval is unbounded: HEAD's runs cannot bound the speedup".to_string())
        }
        Some((lo, hi)) if scale.outside(lo) || scale.outside(hi) => Some(format!(
            "the interval goes past the axis ({} to {})",
            ratio_label(1.0 / LIMIT),
            ratio_label(LIMIT)
        )),
        Some(_) => None,
    };
    let _ = write!(
        out,
        r#" <span class="verdict">{}</span>"#,
        b.verdict.as_str()
    );
    if let Some(note) = note {
        let _ = write!(out, r#"<br><small class="note">{}</small>"#, escape(&note));
    }
    out
}
