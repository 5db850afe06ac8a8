//! Results that give each benchmark both a time and its instruction count (`NAME` and `NAME
//! (instructions)`), analysed at the default `--threshold` (2 %): the fixture of the disagreement rule's
//! tests (`protocol::disagreement`) and of its words in every report (`report::disagreement`). The
//! figures are typed by the tests, not computed by the code under test.

use crate::model::{Benchmark, Counted, Results, Run, Runs, Sample, Suite, Unit};
use crate::protocol::{Analysis, FailOn, Options, Threshold, analyse};

static INSTRUCTIONS: Counted = Counted {
    name: "instructions",
    slug: "instructions",
};

/// `name`'s time, 12 process runs around `median` nanoseconds (each run three samples, ±0.1 %), and its
/// count of `count` instructions, one run.
pub(crate) fn benchmarks(name: &str, median: f64, count: f64) -> Vec<Benchmark> {
    let spread = [0.999, 1.0, 1.001, 0.9995, 1.0005, 0.9998];
    let runs = (0..12)
        .map(|i| {
            let level = median * spread[i % spread.len()];
            let values = vec![level * 0.999, level, level * 1.001];
            Run::new(Sample::new(values, Unit::Ns).unwrap(), None)
        })
        .collect();
    let unit = Unit::Count(&INSTRUCTIONS);
    vec![
        Benchmark {
            name: name.to_string(),
            runs: Runs::new(runs).unwrap(),
            unit: Unit::Ns,
            counters: vec![],
        },
        Benchmark {
            name: format!("{name} (instructions)"),
            runs: Runs::new(vec![Run::new(
                Sample::new(vec![count], unit).unwrap(),
                None,
            )])
            .unwrap(),
            unit,
            counters: vec![],
        },
    ]
}

/// One benchmark of [`analysis`]: `(name, BASE's time, HEAD's time, BASE's count, HEAD's count)`.
pub(crate) type Row<'a> = (&'a str, f64, f64, f64, f64);

/// The analysis of BASE against HEAD, one [`Row`] per benchmark, at the default `--threshold` (2 %).
pub(crate) fn analysis(pairs: &[Row<'_>]) -> Analysis {
    let side = |time: fn(&Row<'_>) -> (f64, f64)| Results {
        origin: "here".to_string(),
        benchmarks: pairs
            .iter()
            .flat_map(|p| {
                let (t, c) = time(p);
                benchmarks(p.0, t, c)
            })
            .collect(),
        environment: Default::default(),
        notes: vec![],
        left_out: vec![],
    };
    let base = side(|p| (p.1, p.3));
    let head = side(|p| (p.2, p.4));
    let options = Options::defaults(FailOn::Any).with_threshold(Threshold::percent(2.0).unwrap());
    analyse(&Suite::pair(base, head), &options)
}
