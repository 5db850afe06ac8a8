//! `cargo speedup HEAD~1..HEAD --measure instructions` on a criterion crate with a benchmark whose setup
//! runs [`WORK`] `nop`s and whose routine adds one (`iter_with_setup`, criterion's `iter_batched` of one
//! input per batch): its count holds the setup, which criterion does not time, and the report names it as
//! counting its setup; the benchmarks of `Bencher::iter` are not named. Skipped, saying why, where
//! `valgrind` is not on the `PATH` (CI installs it, `.ci/run`) or the machine is not x86_64.

use crate::counted::*;
use crate::support::*;

#[test]
fn a_benchmark_whose_count_holds_its_iter_batched_setup_is_named() {
    let Some((_serial, repo)) = planted_repository(write_criterion_batched) else {
        return;
    };
    let dir = repo.path();
    let target = shared_target();
    let args = [
        "HEAD~1..HEAD",
        "--measure",
        "instructions",
        "--format",
        "json",
    ];
    let report = json_report(dir, &target, &args, 0);

    // The routine adds one to a number, yet the count is at least the setup's `nop`s: the setup is
    // counted, once per iteration, exactly (the same at both sides).
    let batched = benchmark(&report, "batched (instructions)");
    assert_eq!(batched["verdict"], "unchanged", "{batched}");
    let count = batched["base"]["median"].as_f64().expect("BASE's count");
    assert!(
        (WORK as f64..WORK as f64 + 1_000.0).contains(&count),
        "batched counts {count} per iteration, its setup {WORK}"
    );
    let json = report.to_string();
    assert!(
        json.contains(
            "batched (instructions): the count includes the setup of criterion's `iter_batched`"
        ),
        "the report names the benchmark that counts its setup: {json}"
    );
    for name in ["changed", "same"] {
        assert!(
            !json.contains(&format!(
                "{name} (instructions): the count includes the setup"
            )),
            "{name} runs `Bencher::iter`: {json}"
        );
    }
}
