use super::*;

#[test]
fn a_narrowed_filter_matches_exactly_the_open_names() {
    let by_target = vec![
        (
            "t".to_string(),
            vec!["g/a".to_string(), "g/a+b (1)".to_string(), "c".to_string()],
        ),
        ("u".to_string(), vec!["d".to_string()]),
    ];
    let open = vec![
        vec!["g/a+b (1)".to_string(), "c".to_string()],
        vec!["d".to_string()],
    ];
    let selection = RunSelection {
        open: Some(&open),
        by_target: &by_target,
        partitioned: false,
    };
    assert_eq!(
        selection.filter(0, "t", Harness::Criterion),
        Some(Some("^(?:g/a\\+b \\(1\\)|c)$".to_string()))
    );
    assert_eq!(selection.filter(0, "u", Harness::Criterion), None);
    // Each participant runs its own open benchmarks: the second only `d`.
    assert_eq!(selection.filter(1, "t", Harness::Criterion), None);
    assert_eq!(
        selection.filter(1, "u", Harness::Criterion),
        Some(Some("^(?:d)$".to_string()))
    );
    let all = RunSelection {
        open: None,
        by_target: &by_target,
        partitioned: false,
    };
    assert_eq!(all.filter(0, "u", Harness::Criterion), Some(None));
    // divan lists `w::f` once; its runs give `w::f::t=1` and `w::f::t=2`, either of which keeps it open.
    let divan = vec![(
        "w".to_string(),
        vec!["w::f".to_string(), "w::g".to_string()],
    )];
    let threads = vec![vec!["w::f::t=2".to_string()]];
    let narrowed = RunSelection {
        open: Some(&threads),
        by_target: &divan,
        partitioned: false,
    };
    assert_eq!(
        narrowed.filter(0, "w", Harness::Divan),
        Some(Some("^(?:w::f)$".to_string()))
    );
    // A target that listed nothing (not criterion's `--list`) keeps running under the user's filter.
    assert_eq!(
        selection.filter(0, "unlisted", Harness::Criterion),
        Some(None)
    );
    // Under `--partition`, a target with nothing of the part does not run at all.
    let part = RunSelection {
        partitioned: true,
        ..selection
    };
    assert_eq!(part.filter(0, "unlisted", Harness::Criterion), None);
    assert_eq!(
        part.filter(1, "u", Harness::Criterion),
        Some(Some("^(?:d)$".to_string()))
    );
}
