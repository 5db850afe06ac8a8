//! HPT's confidence curve (computed by `protocol::hpt`, drawn here): the confidence that HEAD is more than
//! gamma times faster than BASE as gamma grows, and the confidence that it is less than gamma times faster,
//! on a logarithmic gamma axis, with the requested confidence r as a dashed line and the r-speedup read off
//! where Algorithm 1 put it. One picture answers "how much faster, with what confidence".

use std::fmt::Write as _;

use super::svg::{LinearScale, LogScale, escape, line, px, ratio_label, text};
use crate::protocol::{Analysis, ConfidencePoint};
use crate::report::format;

const WIDTH: f64 = 560.0;
const HEIGHT: f64 = 320.0;
const LEFT: f64 = 56.0;
const RIGHT: f64 = WIDTH - 20.0;
const TOP: f64 = 34.0;
const BOTTOM: f64 = HEIGHT - 48.0;

/// The curve's figure, or the reason there is none.
pub(crate) fn figure(analysis: &Analysis) -> String {
    let curve = &analysis.suite.hpt.curve;
    let mut out = String::from(r#"<figure class="curve" data-plot="curve">"#);
    let only_counts = crate::protocol::only_counts(&analysis.benchmarks);
    if curve.len() < 2 {
        let why = match only_counts {
            // `docs/verdicts.md` §7: HPT ranks no count.
            true => {
                "No confidence curve: every benchmark is a count compared exactly, which HPT does not test."
            }
            false => {
                "No confidence curve: HPT had no benchmark with usable runs on both sides to test at any \
                 speedup."
            }
        };
        let _ = write!(out, r#"<p class="missing">{}</p>"#, escape(why));
    } else {
        out.push_str(&plot(analysis, curve));
        let r = format::level(analysis.confidence.level());
        let _ = write!(
            out,
            r#"<figcaption><span class="key faster">━</span> confidence that HEAD is more than γ times faster; <span class="key slower">━</span> confidence that it is less than γ times faster (BASE more than 1/γ times faster); dashed: r = {}.</figcaption>"#,
            escape(&r)
        );
    }
    out.push_str("</figure>");
    out
}

fn plot(analysis: &Analysis, curve: &[ConfidencePoint]) -> String {
    let gammas = curve.iter().map(|p| p.gamma);
    let x = LogScale::around_one(gammas, 1.0, 1000.0, LEFT, RIGHT);
    // The r-speedup label sits above the plot, beside its line.
    let y = LinearScale {
        lo: 0.0,
        hi: 1.0,
        left: BOTTOM,
        right: TOP,
    };
    let mut out = format!(
        r#"<svg viewBox="0 0 {} {}" role="img" aria-label="HPT confidence against the speedup under test">"#,
        px(WIDTH),
        px(HEIGHT)
    );
    for t in [0.0, 0.25, 0.5, 0.75, 1.0] {
        line(&mut out, (LEFT, y.x(t)), (RIGHT, y.x(t)), "grid");
        text(
            &mut out,
            LEFT - 6.0,
            y.x(t) + 4.0,
            "end",
            "tick-label",
            &format!("{t}"),
        );
    }
    for t in x.ticks(48.0) {
        if let Some(tx) = x.x(t) {
            line(&mut out, (tx, TOP), (tx, BOTTOM), "grid");
            text(
                &mut out,
                tx,
                BOTTOM + 16.0,
                "middle",
                "tick-label",
                &ratio_label(t),
            );
        }
    }
    line(&mut out, (LEFT, BOTTOM), (RIGHT, BOTTOM), "axis-line");
    line(&mut out, (LEFT, TOP), (LEFT, BOTTOM), "axis-line");
    text(
        &mut out,
        (LEFT + RIGHT) / 2.0,
        HEIGHT - 8.0,
        "middle",
        "axis-label",
        "γ, the speedup under test (logarithmic)",
    );
    let _ = write!(
        out,
        r#"<text class="axis-label" transform="translate(14 {}) rotate(-90)" text-anchor="middle">confidence</text>"#,
        px((TOP + BOTTOM) / 2.0)
    );
    if let Some(one) = x.x(1.0) {
        line(&mut out, (one, TOP), (one, BOTTOM), "one");
    }
    let r = analysis.confidence.level();
    if format::finite(r).is_some() {
        line(&mut out, (LEFT, y.x(r)), (RIGHT, y.x(r)), "level");
        let label = format!("r = {}", format::level(r));
        text(
            &mut out,
            RIGHT - 4.0,
            y.x(r) + 14.0,
            "end",
            "r-label",
            &label,
        );
    }
    for (class, pick) in [
        (
            "faster",
            (|p: &ConfidencePoint| p.faster) as fn(&ConfidencePoint) -> f64,
        ),
        ("slower", |p: &ConfidencePoint| p.slower),
    ] {
        let points: Vec<String> = curve
            .iter()
            .filter(|p| pick(p).is_finite())
            .filter_map(|p| Some(format!("{},{}", px(x.x(p.gamma)?), px(y.x(pick(p))))))
            .collect();
        let _ = write!(
            out,
            r#"<polyline class="curve-line {class}" points="{}"/>"#,
            points.join(" ")
        );
    }
    if let Some(s) = format::finite_opt(analysis.suite.hpt.r_speedup) {
        if let Some(sx) = x.x(s) {
            line(&mut out, (sx, TOP), (sx, BOTTOM), "r-speedup");
            let label = format!("{}-speedup {}", format::level(r), format::grid_speedup(s));
            let lx = sx.clamp(LEFT + 70.0, RIGHT - 70.0);
            text(&mut out, lx, TOP - 10.0, "middle", "r-label", &label);
        }
    }
    out.push_str("</svg>");
    out
}
