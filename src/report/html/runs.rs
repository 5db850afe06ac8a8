//! Per benchmark, the runs of BASE and HEAD: one point per process run (its median), a line through it for
//! the interquartile range of the samples inside that run, and a mark at each side's median, on a linear
//! time axis in the unit the table prints the benchmark's times in. It shows what a single speedup hides: two modes, one run far
//! from the others, a run much noisier than the rest.
//!
//! Points are spread vertically by a fixed pattern (not at random: the page is the same for the same
//! analysis). A side with more than [`MAX_POINTS`] points (a one-process side of many samples) is drawn
//! by evenly spaced order statistics and says so; a benchmark with one run per side has no distribution
//! and says that in place of the plot.

use std::fmt::Write as _;

use super::svg::{LinearScale, escape, line, px, text};
use crate::model::{Basis, Side};
use crate::protocol::{BenchmarkAnalysis, RunPoint};
use crate::report::format;

const WIDTH: f64 = 360.0;
const HEIGHT: f64 = 104.0;
const LEFT: f64 = 48.0;
const RIGHT: f64 = WIDTH - 12.0;
const AXIS_Y: f64 = 84.0;
/// The most points drawn per side.
pub(crate) const MAX_POINTS: usize = 200;

/// The figure of one benchmark: caption, then the plot or the reason there is none.
pub(crate) fn figure(b: &BenchmarkAnalysis, id: &str) -> String {
    let mut out = format!(r#"<figure class="runs" id="{id}" data-plot="runs">"#);
    let _ = write!(
        out,
        r#"<figcaption title="{}">{}</figcaption>"#,
        escape(&b.name),
        escape(&super::svg::shorten(&b.name, 120))
    );
    let (base, head) = (drawn(&b.points.base), drawn(&b.points.head));
    if base.len() < 2 && head.len() < 2 {
        let _ = write!(
            out,
            r#"<p class="missing">{}</p>"#,
            escape(&format!(
                "No distribution to draw: BASE has {} and HEAD {} observation(s). Measure more process \
                 runs per side to see how they spread.",
                base.len(),
                head.len()
            ))
        );
    } else {
        let spread = [&base, &head]
            .iter()
            .any(|side| side.iter().any(|p| p.spread.is_some()));
        out.push_str(&plot(b, [base, head]));
        let unit = super::super::display_unit(b);
        let kind = match b.basis {
            Basis::ProcessRuns if spread => {
                "one point per process run, its line the quartiles of the run's samples"
            }
            Basis::ProcessRuns => "one point per process run",
            Basis::OneProcess => "one process per side: one point per sample",
            Basis::Deterministic => "one exact count per run",
        };
        let thinned = if [&b.points.base, &b.points.head]
            .iter()
            .any(|side| side.len() > MAX_POINTS)
        {
            format!("; {MAX_POINTS} evenly spaced points of each larger side")
        } else {
            String::new()
        };
        let _ = write!(
            out,
            r#"<p class="caption">{}</p>"#,
            escape(&format!(
                "Times in {}; {kind}{thinned}.",
                format::unit_symbol(unit)
            ))
        );
    }
    out.push_str("</figure>");
    out
}

/// A value that can be drawn as a time: finite, positive, and far enough from f64's limits that the axis
/// padding cannot overflow.
fn time(v: f64) -> bool {
    v.is_finite() && v > 0.0 && v < 1e300
}

/// The points drawn of one side: every drawable one, or [`MAX_POINTS`] evenly spaced order statistics of
/// them.
fn drawn(points: &[RunPoint]) -> Vec<RunPoint> {
    let finite: Vec<RunPoint> = points
        .iter()
        .filter(|p| time(p.value))
        .map(|p| RunPoint {
            value: p.value,
            spread: p.spread.filter(|(l, h)| time(*l) && time(*h)),
        })
        .collect();
    if finite.len() <= MAX_POINTS {
        return finite;
    }
    let mut sorted = finite;
    sorted.sort_by(|a, b| a.value.total_cmp(&b.value));
    (0..MAX_POINTS)
        .map(|i| sorted[i * (sorted.len() - 1) / (MAX_POINTS - 1)])
        .collect()
}

fn plot(b: &BenchmarkAnalysis, [base, head]: [Vec<RunPoint>; 2]) -> String {
    let unit = super::super::display_unit(b);
    let sides = [
        (Side::Base.name(), base, b.base.median, 28.0),
        (Side::Head.name(), head, b.head.median, 60.0),
    ];
    let (lo, hi) = sides
        .iter()
        .flat_map(|(_, points, ..)| points.iter())
        .flat_map(|p| {
            let (l, h) = p.spread.unwrap_or((p.value, p.value));
            [p.value, l, h]
        })
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    let pad = ((hi - lo) * 0.06).max(hi.abs() * 1e-3);
    let scale = LinearScale {
        lo: (lo - pad) / unit.nanos(),
        hi: (hi + pad) / unit.nanos(),
        left: LEFT,
        right: RIGHT,
    };
    let x = |nanos: f64| scale.x(nanos / unit.nanos());
    let mut out = format!(
        r#"<svg viewBox="0 0 {} {}" role="img" aria-label="runs of BASE and HEAD">"#,
        px(WIDTH),
        px(HEIGHT)
    );
    let ticks = scale.ticks(4);
    let step = match ticks.as_slice() {
        [a, b, ..] => b - a,
        _ => scale.hi - scale.lo,
    };
    for &t in &ticks {
        let tx = scale.x(t);
        line(&mut out, (tx, 12.0), (tx, AXIS_Y), "grid");
        text(
            &mut out,
            tx,
            AXIS_Y + 14.0,
            "middle",
            "tick-label",
            &tick(t, step),
        );
    }
    line(&mut out, (LEFT, AXIS_Y), (RIGHT, AXIS_Y), "axis-line");
    for (label, points, median, y) in &sides {
        let class = label.to_ascii_lowercase();
        text(&mut out, 6.0, y + 4.0, "start", "side-label", label);
        let _ = write!(out, r#"<g class="{class}">"#);
        for (i, p) in points.iter().enumerate() {
            let dy = ((i * 7) % 9) as f64 * 2.0 - 8.0;
            if let Some((l, h)) = p.spread {
                line(&mut out, (x(l), y + dy), (x(h), y + dy), "spread");
            }
            let _ = write!(
                out,
                r#"<circle cx="{}" cy="{}" r="2.6"/>"#,
                px(x(p.value)),
                px(y + dy)
            );
        }
        if let Some(m) = format::finite(*median).filter(|m| (lo..=hi).contains(m)) {
            line(&mut out, (x(m), y - 12.0), (x(m), y + 12.0), "median");
        }
        out.push_str("</g>");
    }
    out.push_str("</svg>");
    out
}

/// A tick of the time axis with as many decimals as the step between ticks needs, no unit (the caption
/// gives it).
fn tick(v: f64, step: f64) -> String {
    let decimals = if step > 0.0 && step.is_finite() {
        (-step.log10().floor()).clamp(0.0, 12.0) as usize
    } else {
        3
    };
    format!("{v:.decimals$}")
}
