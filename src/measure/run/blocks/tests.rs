use std::path::{Path, PathBuf};

use super::*;
use crate::measure::harness::Harness;
use crate::measure::harness::PerRun;
use crate::measure::prepare::build::BenchBinary;
use crate::measure::run::processes::{BASELINE, ProcessRunner, home, read_run};
use crate::model::coverage::{LeftOut, Reason};
use crate::model::{Benchmark, Environment, Runs, Sample, Unit};

/// The real runner over `runs_dir`, with a run length of 0.1 s + 0.2 s in 10 samples and no filter.
fn runner(runs_dir: &Path) -> ProcessRunner {
    let per_run = PerRun {
        filter: None,
        warm_up_secs: 0.1,
        measurement_secs: 0.2,
        divan_secs: (0.02, 0.05),
        sample_size: 10,
    };
    ProcessRunner::new(runs_dir.to_path_buf(), per_run, false)
}

fn participant(slug: &'static str, targets: &[&str]) -> Participant {
    Participant::for_tests(slug, slug, targets)
}

/// A bench executable written as a shell script: it lists `TARGET/one` for `--list`, and otherwise
/// panics as Rust does (exit code 101) when `panics`, else succeeds saving nothing.
#[cfg(unix)]
fn script(dir: &Path, slug: &str, target: &str, panics: bool) -> BenchBinary {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(format!("{slug}-{target}"));
    let run = match panics {
        true => "echo \"thread 'main' panicked at benches/b.rs:3:5:\" >&2; echo boom >&2; exit 101",
        false => "exit 0",
    };
    std::fs::write(
        &path,
        format!("#!/bin/sh\ncase \"$*\" in *--list*) echo '{target}/one: benchmark'; exit 0;; esac\n{run}\n"),
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    BenchBinary {
        target: target.to_string(),
        layouts: vec![path],
        package_dir: dir.to_path_buf(),
        manifest: PathBuf::new(),
        cargo_target: PathBuf::new(),
        harness: Harness::Criterion,
        whole_seconds: None,
    }
}

#[cfg(unix)]
fn run_three_blocks(panics: [bool; 2]) -> (Result<(), MeasureError>, Failures) {
    let dir = tempfile::tempdir().unwrap();
    let side = |slug: &'static str, panics: bool| Participant {
        label: slug.into(),
        origin: slug.into(),
        slug: slug.into(),
        binaries: vec![
            script(dir.path(), slug, "fine", false),
            script(dir.path(), slug, "boom", panics),
        ],
    };
    let participants = [side("base", panics[0]), side("head", panics[1])];
    let mut failures = Failures::default();
    let selection = RunSelection {
        open: None,
        by_target: &[],
        partitioned: false,
    };
    let blocks = Blocks {
        participants: &participants,
        seed: 5,
        of: 3,
    };
    let ran = run_blocks(
        &runner(&dir.path().join("runs")),
        blocks,
        0..3,
        selection,
        &Progress::new(true),
        &mut failures,
    );
    (ran, failures)
}

#[cfg(unix)]
#[test]
fn a_target_that_panics_at_one_side_is_left_out_there_with_its_benchmarks_and_stops() {
    let (ran, failures) = run_three_blocks([false, true]);
    assert!(ran.is_ok(), "{ran:?}");
    assert_eq!(failures.failed.len(), 1);
    let failure = &failures.failed[0];
    assert_eq!((failure.participant, failure.target.as_str()), (1, "boom"));
    assert_eq!(failure.exit_codes, [Some(101)]);
    assert_eq!(failure.runs, 1);
    assert_eq!(
        failure.message,
        "thread 'main' panicked at benches/b.rs:3:5:\nboom"
    );
    assert_eq!(failure.benchmarks, ["boom/one"]);
    // It stops at both sides: HEAD never again, BASE after at most one more run; `fine` runs on.
    let started = |p: usize, t: &str| failures.started.get(&(p, t.to_string())).map(|c| c.0);
    assert_eq!(started(1, "boom"), Some(1));
    assert!(
        started(0, "boom").is_some_and(|n| n <= 2),
        "{:?}",
        started(0, "boom")
    );
    assert_eq!((started(0, "fine"), started(1, "fine")), (Some(3), Some(3)));
    let bench = |name: &str| Benchmark {
        name: name.into(),
        runs: Runs::independent(Sample::new(vec![1.0, 2.0], Unit::Ns).unwrap()),
        unit: Unit::Ns,
        counters: vec![],
    };
    let side = |names: &[&str]| Results {
        origin: "x".into(),
        benchmarks: names.iter().map(|n| bench(n)).collect(),
        environment: Environment::default(),
        notes: vec![],
        left_out: vec![],
    };
    let mut results = [side(&["fine/one", "boom/one"]), side(&["fine/one"])];
    failures.apply(&mut results);
    let names = |r: &Results| {
        r.benchmarks
            .iter()
            .map(|b| b.name.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        (names(&results[0]), names(&results[1])),
        (vec!["fine/one".to_string()], vec!["fine/one".to_string()])
    );
    assert!(results[0].left_out.is_empty());
    assert_eq!(
        results[1].left_out,
        [LeftOut::target(
            "boom",
            None,
            Reason::Failed {
                failed: 1,
                runs: 1,
                exit_codes: vec![Some(101)],
                message: "thread 'main' panicked at benches/b.rs:3:5:\nboom".into(),
            }
        )]
    );
}

#[cfg(unix)]
#[test]
fn a_target_that_panics_at_both_sides_is_the_error_it_always_was() {
    let (ran, _) = run_three_blocks([true, true]);
    match ran {
        Err(MeasureError::BenchmarkFailed { target, status, .. }) => {
            assert_eq!(
                (target.as_str(), status.as_str()),
                ("boom", "exit status: 101")
            )
        }
        other => panic!("{other:?}"),
    }
}

/// Writes `runs[i]` as the kept libtest output of block i of `slug` under `runs_dir`, in libtest's
/// documented bench line format (`test NAME ... bench: N ns/iter (+/- M)`).
fn libtest_runs(runs_dir: &Path, slug: &str, runs: &[&[(&str, u32)]]) {
    for (block, rows) in runs.iter().enumerate() {
        let home = home(runs_dir, slug, block as u32);
        std::fs::create_dir_all(&home).unwrap();
        let mut text = format!("running {} tests\n", rows.len());
        for (name, nanos) in rows.iter() {
            text.push_str(&format!("test {name} ... bench: {nanos} ns/iter (+/- 0)\n"));
        }
        std::fs::write(home.join("t.libtest.txt"), text).unwrap();
    }
}

#[test]
fn a_benchmark_left_out_in_every_run_is_left_out_of_the_side_once() {
    let dir = tempfile::tempdir().unwrap();
    let runs_dir = dir.path().join("runs");
    libtest_runs(
        &runs_dir,
        "base",
        &[
            &[("zero", 0), ("some", 0), ("fine", 7)],
            &[("zero", 0), ("some", 9), ("fine", 8)],
            &[("zero", 0), ("some", 10), ("fine", 9)],
        ],
    );
    let read = read_all(
        &runner(&runs_dir),
        &[participant("base", &["t"])],
        0,
        3,
        &[],
        &Failures::default(),
    )
    .unwrap();
    let base = &read[0];
    let names: Vec<(&str, usize)> = base
        .benchmarks
        .iter()
        .map(|b| (b.name.as_str(), b.runs.len()))
        .collect();
    // In the order first measured: `fine` in run 1, `some` in run 2.
    assert_eq!(names, [("fine", 3), ("some", 2)]);
    assert_eq!(base.benchmarks[1].runs.values(), [9.0, 10.0]);
    // Each run carries its block, a run missed leaving a gap that `--paired` pairs around; all of one
    // session, which another seed does not share.
    let (session, fine) = base.benchmarks[0].runs.blocks().unwrap();
    assert_eq!(fine, [0, 1, 2]);
    assert_eq!(
        base.benchmarks[1].runs.blocks(),
        Some((session, vec![1, 2]))
    );
    let other = read_all(
        &runner(&runs_dir),
        &[participant("base", &["t"])],
        1,
        3,
        &[],
        &Failures::default(),
    )
    .unwrap();
    assert_ne!(other[0].benchmarks[0].runs.blocks().unwrap().0, session);
    // Once, not once per run; `some`, measured in two runs, is compared on those.
    assert_eq!(
        base.left_out,
        [LeftOut::benchmark(
            "zero",
            None,
            Reason::BelowResolution {
                printed: "0 ns/iter".into()
            }
        )]
    );
    assert_eq!(
        base.notes,
        [
            "base: `some` was left out of 1 of 3 runs (printed `0 ns/iter`, below the harness's \
          resolution); it is compared on the 2 that measured it"
        ]
    );
}

#[test]
fn a_side_whose_every_benchmark_was_left_out_is_no_error_beside_another() {
    let dir = tempfile::tempdir().unwrap();
    let runs_dir = dir.path().join("runs");
    libtest_runs(&runs_dir, "base", &[&[("zero", 3)], &[("zero", 4)]]);
    libtest_runs(&runs_dir, "head", &[&[("zero", 0)], &[("zero", 0)]]);
    let sides = [participant("base", &["t"]), participant("head", &["t"])];
    let read = read_all(&runner(&runs_dir), &sides, 0, 2, &[], &Failures::default()).unwrap();
    assert_eq!(read[0].benchmarks.len(), 1);
    assert!(read[1].benchmarks.is_empty());
    assert_eq!(read[1].left_out.len(), 1);
    assert_eq!(read[1].left_out[0].name, "zero");
    // Alone (`record`), nothing is left to give: the error it always was.
    match read_all(
        &runner(&runs_dir),
        &sides[1..],
        0,
        2,
        &[],
        &Failures::default(),
    ) {
        Err(MeasureError::NoSamples { revision }) => assert_eq!(revision, "head"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_criterion_run_that_saved_no_usable_value_leaves_its_benchmark_out() {
    use crate::testutil::source_fixtures::{copy_tree, fixture};
    // criterion's saved benchmark `alpha` without its sample.json (a run stopped between the two
    // files), saved under this tool's baseline; another run measured `fib_20` only.
    let dir = tempfile::tempdir().unwrap();
    let runs_dir = dir.path().join("runs");
    let first = home(&runs_dir, "base", 0);
    copy_tree(
        &fixture("criterion/broken/alpha/new"),
        &first.join("alpha").join(BASELINE),
    );
    let run = read_run(&first).unwrap();
    assert!(run.benchmarks.is_empty());
    assert_eq!(
        run.left_out,
        [LeftOut::benchmark(
            "alpha",
            None,
            Reason::NoValue {
                detail: "no sample.json beside its benchmark.json".into()
            }
        )]
    );
    copy_tree(
        &fixture("criterion/real/fib_20/new"),
        &home(&runs_dir, "base", 1).join("fib_20").join(BASELINE),
    );
    let read = read_all(
        &runner(&runs_dir),
        &[participant("base", &["t"])],
        0,
        2,
        &[],
        &Failures::default(),
    )
    .unwrap();
    assert_eq!(read[0].benchmarks.len(), 1);
    assert_eq!(read[0].benchmarks[0].name, "fib_20");
    assert_eq!(read[0].left_out.len(), 1);
    assert_eq!(read[0].left_out[0].name, "alpha");
}
