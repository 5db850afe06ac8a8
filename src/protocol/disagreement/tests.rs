use super::*;
use crate::testutil::time_and_count::analysis;

#[test]
fn a_slower_time_with_an_unchanged_count_and_a_changed_count_with_an_unchanged_time_disagree() {
    let a = analysis(&[
        // A sleep: time three times slower, 0.4 % more instructions (within 2 %).
        ("slept", 100_000.0, 300_000.0, 100_000.0, 100_400.0),
        // Time faster, count equal.
        ("cached", 100_000.0, 50_000.0, 5_000.0, 5_000.0),
        // Count 10 % more, time the same.
        ("hidden", 100_000.0, 100_000.0, 1_000.0, 1_100.0),
        // Both slower: they agree.
        ("both", 100_000.0, 200_000.0, 1_000.0, 2_000.0),
        // Both unchanged: they agree.
        ("still", 100_000.0, 100_000.0, 1_000.0, 1_000.0),
        // itoa 7b4c86b's u128[max]: 278 → 270 instructions (−2.9 %) while the time was slower.
        ("opposite", 100_000.0, 103_000.0, 278.0, 270.0),
        // Both faster: they agree.
        ("lighter", 100_000.0, 50_000.0, 1_000.0, 500.0),
    ]);
    let verdict = |name: &str| {
        a.benchmarks
            .iter()
            .find(|b| b.name == name)
            .unwrap()
            .verdict
    };
    assert_eq!(verdict("slept"), Verdict::Slower);
    assert_eq!(verdict("hidden"), Verdict::Unchanged);
    assert_eq!(verdict("hidden (instructions)"), Verdict::Slower);
    let found = disagreements(&a);
    let kinds: Vec<(&str, DisagreementKind)> = found
        .iter()
        .map(|d| (d.benchmark.as_str(), d.kind))
        .collect();
    assert_eq!(
        kinds,
        [
            ("slept", DisagreementKind::TimeNotCount),
            ("cached", DisagreementKind::TimeNotCount),
            ("hidden", DisagreementKind::CountNotTime),
            ("opposite", DisagreementKind::Opposite),
        ]
    );
    let slept = &found[0];
    assert_eq!(slept.count, "slept (instructions)");
    assert_eq!(slept.time, Verdict::Slower);
    assert!((slept.time_change_pct - 200.0).abs() < 1e-9, "{slept:?}");
    assert!((slept.count_change_pct - 0.4).abs() < 1e-9, "{slept:?}");
    assert_eq!(found[1].time, Verdict::Faster);
    assert!((found[2].count_change_pct - 10.0).abs() < 1e-9);
}

#[test]
fn the_threshold_says_what_an_unchanged_count_is_and_equal_counts_are_always_unchanged() {
    let a = analysis(&[("slept", 100_000.0, 300_000.0, 100_000.0, 100_400.0)]);
    let (time, count) = (&a.benchmarks[0], &a.benchmarks[1]);
    assert_eq!(count.name, "slept (instructions)");
    // 0.4 % more instructions: unchanged at 2 % or 0.5 %, changed at 0.3 % or 0 (the gate's rule: a count
    // grew beyond the threshold when HEAD's over BASE's − 1 exceeds it).
    for (threshold, disagree) in [(2.0, true), (0.5, true), (0.3, false), (0.0, false)] {
        assert_eq!(
            disagreement(time, count, threshold).is_some(),
            disagree,
            "{threshold}"
        );
    }
    let a = analysis(&[("cached", 100_000.0, 50_000.0, 5_000.0, 5_000.0)]);
    let (time, count) = (&a.benchmarks[0], &a.benchmarks[1]);
    assert_eq!(
        disagreement(time, count, 0.0).map(|d| d.kind),
        Some(DisagreementKind::TimeNotCount)
    );
    // The arguments the other way round, or two times: nothing to compare.
    assert_eq!(disagreement(count, time, 2.0), None);
    assert_eq!(disagreement(time, time, 2.0), None);
}

#[test]
fn an_undecided_time_or_a_time_without_its_count_disagrees_with_nothing() {
    let mut a = analysis(&[("hidden", 100_000.0, 100_000.0, 1_000.0, 1_100.0)]);
    a.benchmarks[0].verdict = Verdict::Inconclusive;
    assert_eq!(disagreements(&a), []);
    // The count of another benchmark does not count.
    let mut a = analysis(&[("slept", 100_000.0, 300_000.0, 100_000.0, 100_000.0)]);
    a.benchmarks[1].name = "other (instructions)".to_string();
    assert_eq!(disagreements(&a), []);
}
