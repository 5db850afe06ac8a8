//! `cargo speedup HEAD~1..HEAD --measure instructions` on a divan crate (divan 0.1.21, the bench profile's
//! own optimisation): the benchmarks run a known number of instructions (`nop`s written with `asm!`,
//! x86_64), and HEAD calls one more `#[inline(never)]` function of 100 `nop`s in one benchmark. One run per
//! side finds that benchmark slower by the planted share and the other equal, exactly, as for criterion
//! (`instructions.rs`); both benchmarks run in one process per sample size and side, which the callgrind
//! files `--keep-profiles` leaves show (each benchmark's dumps, from the same process as the other's).
//! Skipped, saying why, where `valgrind` is not on the `PATH` (CI installs it, `.ci/run`) or the machine is
//! not x86_64.

use crate::counted::*;
use crate::support::*;

#[test]
fn a_planted_half_percent_of_a_divan_benchmark_s_instructions_is_found_exactly() {
    let Some((_serial, repo)) = planted_repository(write_divan_counted) else {
        return;
    };
    let dir = repo.path();
    let target = shared_target();
    let before = repository_state(dir);

    let kept = tempfile::tempdir().unwrap();
    let profiles = kept.path().join("profiles");
    let args = [
        "HEAD~1..HEAD",
        "--measure",
        "instructions",
        "--format",
        "json",
        "--threshold",
        "0",
        "--keep-profiles",
        profiles.to_str().unwrap(),
    ];
    // `--threshold 0`: any increase of a count fails the gate.
    let report = json_report(dir, &target, &args, 1);

    let changed = benchmark(&report, "work::changed (instructions)");
    assert_eq!(changed["verdict"], "slower", "{changed}");
    let (base, head) = (
        changed["base"]["median"].as_f64().expect("BASE's count"),
        changed["head"]["median"].as_f64().expect("HEAD's count"),
    );
    // An iteration is the planted `nop`s, the call and return of `work`, and divan's loop step around the
    // benchmark (a few instructions, optimised): never below the planted work, never 200 above it.
    assert!(
        (WORK as f64..WORK as f64 + 200.0).contains(&base),
        "BASE counts {base} per iteration, the routine {WORK}"
    );
    // HEAD adds the extra `nop`s, a call and a return (and at most a few instructions of moved code).
    let added = head - base;
    assert!(
        (EXTRA as f64 + 2.0..=EXTRA as f64 + 8.0).contains(&added),
        "HEAD adds {added} instructions per iteration, {EXTRA} planted"
    );
    let same = benchmark(&report, "work::same (instructions)");
    assert_eq!(same["verdict"], "unchanged", "{same}");
    assert_eq!(same["base"]["median"], same["head"]["median"], "{same}");
    assert_eq!(
        same["base"]["median"].as_f64(),
        Some(base),
        "the same routine: {report}"
    );
    assert_eq!(repository_state(dir), before);
    one_process_per_size(&profiles);
}

/// Under each revision's kept files (`REVISION/work/BENCHMARK/nSIZE/callgrind.out.PID.PART`), both
/// benchmarks have their 8 dumps at each size (4 samples, each a loop and the gap after it), and at a size
/// all of a revision's dumps come from one process.
fn one_process_per_size(profiles: &std::path::Path) {
    let revisions: Vec<_> = std::fs::read_dir(profiles)
        .expect("the kept profiles")
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(revisions.len(), 2, "{revisions:?}");
    for revision in revisions {
        for size in ["n100", "n200"] {
            let mut pids = std::collections::BTreeSet::new();
            for benchmark in ["work_changed", "work_same"] {
                let at = revision.join("work").join(benchmark).join(size);
                let files: Vec<String> = std::fs::read_dir(&at)
                    .unwrap_or_else(|e| panic!("{}: {e}", at.display()))
                    .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                    .collect();
                assert_eq!(files.len(), 8, "{}: {files:?}", at.display());
                for file in files {
                    let pid = file.split('.').nth(2).map(str::to_string);
                    pids.insert(
                        pid.unwrap_or_else(|| panic!("{file}: not callgrind.out.PID.PART")),
                    );
                }
            }
            assert_eq!(pids.len(), 1, "{}/{size}: {pids:?}", revision.display());
        }
    }
}
