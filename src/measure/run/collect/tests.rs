use super::*;
use crate::model::{Environment, Sample, Unit};

fn results(benchmarks: &[(&str, &[f64])]) -> Results {
    Results {
        origin: "run".into(),
        benchmarks: benchmarks
            .iter()
            .map(|(n, v)| Benchmark {
                name: n.to_string(),
                runs: Runs::one_process(Sample::new(v.to_vec(), Unit::Ns).unwrap()),
                unit: Unit::Ns,
                counters: Vec::new(),
            })
            .collect(),
        environment: Environment::default(),
        notes: vec![],
        left_out: vec![],
    }
}

#[test]
fn each_process_becomes_one_run_and_missing_ones_are_noted() {
    let collected = collect(
        "main",
        vec![
            (results(&[("a", &[1.0, 2.0, 3.0]), ("b", &[5.0])]), Some(0)),
            (results(&[("a", &[3.0, 4.0])]), Some(1)),
        ],
        &Default::default(),
    );
    let a = &collected.benchmarks[0].runs;
    assert_eq!(a.len(), 2);
    assert_eq!(a.values(), vec![2.0, 3.5]);
    assert_eq!(a.runs()[1].samples(), &[3.0, 4.0]);
    assert_eq!(a.runs()[1].layout(), Some(1));
    assert_eq!(collected.benchmarks[1].runs.len(), 1);
    assert_eq!(collected.notes.len(), 1);
    assert!(
        collected.notes[0].contains("`b` ran in 1 of 2 runs"),
        "{:?}",
        collected.notes
    );
    // Stopped after its first run, decided: not missing.
    let stopped = [("b".to_string(), 1)].into_iter().collect();
    let quiet = collect(
        "main",
        vec![
            (results(&[("a", &[1.0]), ("b", &[5.0])]), None),
            (results(&[("a", &[3.0])]), None),
        ],
        &stopped,
    );
    assert!(quiet.notes.is_empty(), "{:?}", quiet.notes);
}
