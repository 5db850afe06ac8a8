//! Property tests of every renderer on analyses whose numbers are arbitrary `f64` (NaN, infinities,
//! subnormals, huge and negative values included): whatever the numbers, the JSON parses, no output
//! prints NaN or infinity, and the table stays within its width.

use proptest::prelude::*;

use super::{Format, Style, renderer};
use crate::model::BaseHead;
use crate::protocol::{Analysis, Confidence, Threshold};
use crate::testutil::analyses;

/// Overwrites the numbers of a sample analysis with `x`, cycling through them.
fn with_numbers(x: &[f64]) -> Analysis {
    let mut a = analyses::inconclusive_with_warnings();
    let mut next = x.iter().copied().cycle();
    let mut n = || next.next().unwrap_or(f64::NAN);
    for b in &mut a.benchmarks {
        b.base.median = n();
        b.head.median = n();
        b.base.min = n();
        b.speedup.median = n();
        b.speedup.mean = n();
        b.median_test.speedup_interval = Some((n(), n()));
        b.equivalence.interval = Some((n(), n()));
        b.median_test.p_value = Some(n());
        b.median_test.confidence_level = Some(n());
        b.mean_test.confidence_level = Some(n());
        b.mean_test.shapiro_p_values = BaseHead::new(Some(n()), Some(n()));
        b.hpt.difference = n();
        b.hpt.log_ratio = n();
        for side in [&mut b.points.base, &mut b.points.head] {
            for p in side.iter_mut() {
                p.value = n();
                p.spread = Some((n(), n()));
            }
        }
    }
    let hpt = &mut a.suite.hpt;
    hpt.confidence = Some(n());
    hpt.r_speedup = Some(n());
    hpt.gamma = Some(n());
    hpt.gamma_confidence = Some(n());
    hpt.geometric_mean_speedup = Some(n());
    hpt.max_confidence = Some(n());
    hpt.curve = (0..5)
        .map(|_| crate::protocol::ConfidencePoint {
            gamma: n(),
            faster: n(),
            slower: n(),
        })
        .collect();
    if let Some(o) = &mut a.suite.overall {
        o.median.gain = n();
        o.median.speedup = n();
    }
    if let Some(p) = &mut a.suite.proportion {
        p.median.lower = n();
        p.median.upper = n();
    }
    // Only levels in (0, 1) and thresholds of 0 or more can be built: their types refuse the others.
    a.confidence = Confidence::new(n()).unwrap_or(a.confidence);
    a.gate.threshold = Threshold::percent(n()).unwrap_or(a.gate.threshold);
    a
}

fn render(format: Format, analysis: &Analysis, style: Style) -> String {
    let mut out = Vec::new();
    renderer(format)
        .render(analysis, style, &mut out)
        .expect("writing to a Vec cannot fail");
    String::from_utf8(out).expect("reports are UTF-8")
}

fn any_number() -> impl Strategy<Value = f64> {
    prop_oneof![
        proptest::num::f64::ANY,
        Just(f64::NAN),
        Just(f64::INFINITY),
        0.0..2.0f64,
        1e-12..1e12f64,
    ]
}

proptest! {
    #[test]
    fn any_numbers_render_without_nan_and_as_strict_json(x in prop::collection::vec(any_number(), 1..40)) {
        let analysis = with_numbers(&x);
        let style = Style { color: false, width: Some(50), verbose: false };
        for format in [Format::Table, Format::Json, Format::Markdown, Format::Csv, Format::Html] {
            let text = render(format, &analysis, style);
            let lower = text.to_lowercase();
            for word in lower.split(|c: char| !c.is_ascii_alphanumeric()) {
                prop_assert!(!["nan", "inf", "infinity"].contains(&word), "{format:?} prints {word}");
            }
            if format == Format::Table {
                for line in text.lines() {
                    prop_assert!(line.chars().count() <= 50, "{line:?}");
                }
            }
        }
        let json = render(Format::Json, &analysis, style);
        prop_assert!(serde_json::from_str::<serde_json::Value>(&json).is_ok());
    }
}
