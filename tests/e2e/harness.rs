//! Bench targets that are not criterion: a divan crate at two revisions (a planted 2x slowdown found, an
//! A/A that stays silent), a libtest `#[bench]` crate (measured only where a nightly toolchain is
//! installed; on stable its clear refusal is checked), and bench targets no harness reader knows.

use std::io::Write;
use std::path::Path;

use crate::support::*;

/// A repository of two commits of the divan crate: `changed` spins `first` then `second` times, and the
/// comment line reads `first_comment` then `second_comment`, run `HEAD~1..HEAD` with `extra` options.
fn divan_comparison(
    (first, first_comment): (u32, &str),
    (second, second_comment): (u32, &str),
    extra: &[&str],
) -> std::process::Output {
    let repo = repository();
    let dir = repo.path();
    write_divan_crate(dir, first, first_comment);
    commit(dir, "first");
    write_divan_crate(dir, second, second_comment);
    commit(dir, "second");
    // `extra` may set `--runs` again: `RUN`'s is then left out (a flag given twice is refused).
    let runs_again = extra.contains(&"--runs");
    let mut args: Vec<&str> = Vec::new();
    let mut run = RUN.iter();
    while let Some(&arg) = run.next() {
        if runs_again && arg == "--runs" {
            run.next();
            continue;
        }
        args.push(arg);
    }
    args.extend_from_slice(extra);
    speedup(dir, &shared_target(), &args)
}

/// A crate whose `benches/work.rs` has two divan benchmarks, `changed` spinning `loops` times and `same`
/// always 200 times, and a `comment` line (an A/A changes only it).
fn write_divan_crate(dir: &Path, loops: u32, comment: &str) {
    let manifest = r#"[package]
name = "demo"
version = "0.1.0"
edition = "2021"

[dev-dependencies]
divan = "=0.1.21"

[[bench]]
name = "work"
harness = false
"#;
    // The same `demo::spin` as the criterion fixture crate's.
    let criterion = criterion_crate(0);
    let lib = &criterion
        .iter()
        .find(|(p, _)| *p == "src/lib.rs")
        .unwrap()
        .1;
    let bench = format!(
        r#"// {comment}
use divan::black_box;

fn main() {{
    divan::main();
}}

#[divan::bench]
fn changed() -> u64 {{
    demo::spin(black_box({loops}))
}}

#[divan::bench]
fn same() -> u64 {{
    demo::spin(black_box(200))
}}
"#
    );
    write(
        dir,
        &[
            ("Cargo.toml", manifest),
            ("src/lib.rs", lib),
            ("benches/work.rs", &bench),
            (".gitignore", "target\n"),
        ],
    );
    if !dir.join("Cargo.lock").exists() {
        generate_lockfile(dir);
    }
}

fn verdicts(report: &serde_json::Value) -> Vec<(String, String)> {
    report["benchmarks"]
        .as_array()
        .unwrap_or_else(|| panic!("no benchmarks in {report}"))
        .iter()
        .map(|b| {
            (
                b["name"].as_str().unwrap_or("").to_string(),
                b["verdict"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn a_divan_benchmark_made_ten_times_as_slow_is_found_slower() {
    let _serial = serial();
    // Ten times: the runs are a millisecond long and other tests run beside this one, so a planted 2x can
    // drown in the noise of six runs.
    let out = divan_comparison((200, "fast"), (2000, "fast"), &["--rerun"]);
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "stderr: {text}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    let verdicts = verdicts(&report);
    assert!(
        verdicts.contains(&("work::changed".to_string(), "slower".to_string())),
        "{verdicts:?}"
    );
    assert!(
        verdicts.iter().any(|(name, verdict)| name == "work::same"
            && verdict != "slower"
            && verdict != "faster"),
        "{verdicts:?}"
    );
}

#[test]
fn a_divan_a_a_comparison_calls_nothing_faster_or_slower() {
    let _serial = serial();
    // At 0.95 each benchmark of unchanged code is called faster or slower about one time in ten (the
    // stated risk, `docs/verdicts.md`), so two benchmarks would fail this test about one run in five: at
    // 0.999 the chance is about 0.4 %. 12 runs per side (not `RUN`'s 6, whose smallest p-value, 1/924, is
    // above 0.001) keep a false verdict possible, so the assertion can fail.
    let out = divan_comparison(
        (200, "one"),
        (200, "two"),
        &[
            "--run-identical",
            "--rerun",
            "--confidence",
            "0.999",
            "--runs",
            "12",
        ],
    );
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "stderr: {text}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    let verdicts = verdicts(&report);
    assert_eq!(verdicts.len(), 2, "{verdicts:?}");
    assert!(
        verdicts
            .iter()
            .all(|(_, verdict)| verdict != "slower" && verdict != "faster"),
        "{verdicts:?}"
    );
    // Both were measured, not set aside as identical.
    assert!(text.contains("run 1 of"), "{text}");
}

/// A one-commit repository of a crate with the bench file `bench` (and `deps` as dev-dependencies).
fn one_bench_repository(bench: &str, deps: &str) -> tempfile::TempDir {
    let repo = repository();
    let dir = repo.path();
    let manifest = format!(
        "[package]\nname = \"odd\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dev-dependencies]\n{deps}\n\n[[bench]]\nname = \"odd\"\nharness = false\n"
    );
    write(
        dir,
        &[
            ("Cargo.toml", &manifest),
            ("src/lib.rs", ""),
            ("benches/odd.rs", bench),
            (".gitignore", "target\n"),
        ],
    );
    generate_lockfile(dir);
    commit(dir, "one");
    repo
}

/// The first line and the hint of a run of `HEAD..HEAD` on `repo`.
fn refusal(repo: &tempfile::TempDir) -> (Option<i32>, String) {
    let out = speedup(
        repo.path(),
        &shared_target(),
        &["HEAD..HEAD", "--run-identical", "--runs", "2", "--fixed"],
    );
    (out.status.code(), stderr(&out))
}

#[test]
fn a_bench_target_of_no_known_harness_is_refused_naming_it() {
    let _serial = serial();
    let repo = one_bench_repository("fn main() {\n    println!(\"hello\");\n}\n", "");
    let (code, text) = refusal(&repo);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains(
            "error: the bench target `odd` of "
        ) && text.contains(
            "uses no harness cargo speedup knows (a plain `main` with neither dependency): expected criterion (`criterion_main!`), divan (`divan::main()`) or libtest `#[bench]`\nhint: leave it out with --bench NAME (one per target to measure), force a harness with --harness criterion|divan|libtest, or, for a custom harness, write its values as raw JSON and compare them with `cargo speedup compare`"
        ),
        "{text}"
    );
}

#[test]
fn a_divan_target_that_prints_nothing_or_something_else_is_refused_naming_it() {
    let _serial = serial();
    let divan = "divan = \"=0.1.21\"";
    let silent = one_bench_repository("fn main() {}\n", divan);
    let (code, text) = refusal(&silent);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("error: the benchmark `odd` of ") && text.contains(
            "but its output is not divan's: it printed nothing\nhint: a divan bench target prints its results on standard output; check that it runs under `cargo bench`, leave it out with --bench NAME, force another harness with --harness, or, for a custom harness, write its values as raw JSON and compare them with `cargo speedup compare`"
        ),
        "{text}"
    );
    let other = one_bench_repository(
        "fn main() {\n    println!(\"ran 3 benchmarks\");\n}\n",
        divan,
    );
    let (code, text) = refusal(&other);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("but its output is not divan's: line 1: `ran 3 benchmarks` is not a divan tree's root (`NAME  fastest │ slowest │ median │ mean │ samples │ iters`)\nhint: "),
        "{text}"
    );
}

#[test]
fn a_divan_target_that_panics_is_refused_naming_it() {
    let _serial = serial();
    let repo = one_bench_repository(
        "fn main() {\n    divan::main();\n}\n\n#[divan::bench]\nfn boom() {\n    panic!(\"boom\");\n}\n",
        "divan = \"=0.1.21\"",
    );
    let (code, text) = refusal(&repo);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("error: the benchmark `odd` of "), "{text}");
    assert!(
        text.contains("hint: it runs as `cargo bench` would run it, with the run options of its harness (criterion, divan or libtest); a benchmark that fails can be left out with --filter PATTERN (a pattern that does not match it), a bench target that is none of these with --bench NAME, and a custom harness's values compared with `cargo speedup compare` as raw JSON"),
        "{text}"
    );
}

/// Whether the toolchain cargo uses in `dir` is a nightly.
fn nightly_in(dir: &Path) -> bool {
    std::process::Command::new("rustc")
        .arg("-V")
        .current_dir(dir)
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("nightly"))
}

const LIBTEST_BENCH: &str = "#![feature(test)]\nextern crate test;\n\n#[bench]\nfn changed(b: &mut test::Bencher) {\n    b.iter(|| (0..test::black_box(LOOPS)).fold(0u64, |a, i| a.wrapping_mul(31) ^ i));\n}\n\n#[bench]\nfn same(b: &mut test::Bencher) {\n    b.iter(|| (0..test::black_box(200u64)).fold(0u64, |a, i| a.wrapping_mul(31) ^ i));\n}\n";

fn write_libtest_crate(dir: &Path, loops: u32) {
    let manifest = "[package]\nname = \"old\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[[bench]]\nname = \"old\"\n";
    let bench = LIBTEST_BENCH.replace("LOOPS", &format!("{loops}u64"));
    write(
        dir,
        &[
            ("Cargo.toml", manifest),
            ("src/lib.rs", ""),
            ("benches/old.rs", &bench),
            (".gitignore", "target\n"),
        ],
    );
}

#[test]
fn a_libtest_bench_needs_nightly_and_on_nightly_a_slowdown_is_found() {
    let _serial = serial();
    let repo = repository();
    let dir = repo.path();
    write_libtest_crate(dir, 200);
    commit(dir, "fast");
    write_libtest_crate(dir, 400);
    commit(dir, "twice as slow");
    let out = speedup(dir, &shared_target(), &[&RUN[..], &["--rerun"]].concat());
    let text = stderr(&out);
    if !nightly_in(dir) {
        // Written to stderr directly, past the test harness's capture, so that the skip shows in every log.
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED: measuring libtest #[bench] needs a nightly toolchain, none is installed here; checked its refusal instead"
        );
        assert_eq!(out.status.code(), Some(2), "{text}");
        assert!(
            text.contains("error: HEAD (HEAD, ") && text.contains(
                ": the bench file `benches/old.rs` uses libtest `#[bench]` (`#![feature(test)]`), which builds on a nightly toolchain only, and this one is not nightly\nhint: install nightly (`rustup toolchain install nightly`) and run with `--toolchain nightly` (or `cargo +nightly speedup ...`), or pin it for the crate with a `rust-toolchain.toml` file (`[toolchain]` `channel = \"nightly\"`); or leave the target out with --bench NAME; a custom harness's values can be compared as raw JSON with `cargo speedup compare`"
            ),
            "{text}"
        );
        return;
    }
    assert_eq!(out.status.code(), Some(1), "stderr: {text}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    assert!(
        verdicts(&report).contains(&("changed".to_string(), "slower".to_string())),
        "{report}"
    );
}
