//! A part for `merge`, as the tests of reading and merging parts take it: the JSON report of a measured
//! comparison, made by the analysis and the JSON renderer from runs typed by hand.

use crate::model::fingerprint::Fingerprint;
use crate::model::{Benchmark, Environment, Pair, Run, Runs, Sample, Suite, Unit};
use crate::protocol::FailOn;
use crate::protocol::{Options, analyse};
use crate::report::{Format, Style, renderer};

/// A measured comparison's report: two benchmarks, one with layouts, one of one process per side.
pub(crate) fn measured_report(fingerprint: Option<Fingerprint>) -> (Suite, String) {
    let runs = |values: &[&[f64]], layouts: bool| {
        Runs::new(
            values
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    Run::new(
                        Sample::new(v.to_vec(), Unit::Ns).unwrap(),
                        layouts.then_some(i as u32),
                    )
                })
                .collect(),
        )
        .unwrap()
    };
    let benchmark = |name: &str, values: &[&[f64]], layouts, unit| Benchmark {
        name: name.into(),
        runs: runs(values, layouts),
        unit,
        counters: Vec::new(),
    };
    let pairs = vec![
        Pair {
            name: "parse/small".into(),
            base: benchmark(
                "parse/small",
                &[&[812.5, 811.0], &[1.0 / 3.0], &[799.25]],
                true,
                Unit::Us,
            ),
            head: benchmark(
                "parse/small",
                &[&[700.125], &[701.0], &[690.0, 0.1]],
                true,
                Unit::Us,
            ),
        },
        Pair {
            name: "one".into(),
            base: benchmark("one", &[&[5.0, 6.0, 7.0]], false, Unit::Ns),
            head: benchmark("one", &[&[4.0, 5.0, 6.5]], false, Unit::Ns),
        },
    ];
    let environment = Environment {
        fingerprint,
        ..Environment::default()
    };
    let suite = Suite {
        pairs,
        base_only: vec!["old".into()],
        head_only: vec![],
        base_environment: environment.clone(),
        head_environment: environment,
        notes: vec![],
        identical: vec!["same".into()],
        design: crate::model::Design::READ,
        left_out: vec![],
    };
    let analysis = analyse(&suite, &Options::defaults(FailOn::Suite));
    let mut bytes = Vec::new();
    renderer(Format::Json)
        .render(&analysis, Style::plain(), &mut bytes)
        .unwrap();
    (suite, String::from_utf8(bytes).unwrap())
}
