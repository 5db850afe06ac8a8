//! Identical code, identical executables: a commit that only bumps the package version builds the same
//! bench executable as its parent once BASE takes HEAD's version, so nothing is run and every benchmark is
//! unchanged; the user's `Cargo.toml` and `Cargo.lock` stay as they were. `--run-identical` measures anyway.

use crate::support::*;

fn bump_version(dir: &std::path::Path) {
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    let bumped = manifest.replace("version = \"0.1.0\"", "version = \"0.2.0\"");
    assert_ne!(manifest, bumped);
    write(dir, &[("Cargo.toml", &bumped)]);
    generate_lockfile(dir);
}

#[test]
fn a_version_bump_alone_runs_nothing_and_is_unchanged() {
    let _serial = serial();
    let repo = repository();
    let dir = repo.path();
    write_criterion_crate(dir, 200);
    commit(dir, "base");
    bump_version(dir);
    commit(dir, "version 0.2.0");
    let lock = std::fs::read(dir.join("Cargo.lock")).unwrap();
    assert!(String::from_utf8_lossy(&lock).contains("0.2.0"));
    let manifest = std::fs::read(dir.join("Cargo.toml")).unwrap();
    let target = shared_target();
    let before = repository_state(dir);

    let out = speedup(dir, &target, &RUN);
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("BASE is built with HEAD's package versions (demo 0.1.0 -> 0.2.0)"),
        "{text}"
    );
    assert!(text.contains("identical executables of `work`"), "{text}");
    assert!(!text.contains("running "), "nothing may run: {text}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    assert_eq!(report["verdict"], "unchanged", "{report}");
    assert_eq!(
        report["identical_executables"],
        serde_json::json!(["changed", "same"]),
        "{report}"
    );
    assert_eq!(report["gate"]["failed"], false);
    assert_eq!(repository_state(dir), before);
    assert_eq!(std::fs::read(dir.join("Cargo.lock")).unwrap(), lock);
    assert_eq!(std::fs::read(dir.join("Cargo.toml")).unwrap(), manifest);

    // Asked to, it measures the same executables: the benchmarks are compared, not set aside.
    let mut args = RUN.to_vec();
    args.push("--run-identical");
    let measured = speedup(dir, &target, &args);
    let text = stderr(&measured);
    assert!(matches!(measured.status.code(), Some(0 | 1)), "{text}");
    assert!(text.contains("running "), "{text}");
    let report: serde_json::Value = serde_json::from_slice(&measured.stdout).expect("JSON report");
    assert_eq!(report["identical_executables"], serde_json::json!([]));
    assert_eq!(report["benchmarks"].as_array().map(Vec::len), Some(2));
    assert_eq!(repository_state(dir), before);
    assert_eq!(
        report["fingerprint"]["settings"]["pin"],
        serde_json::Value::Null
    );

    // Pinned, every run goes to the last core this process may use, and the report says the runs were.
    args.push("--pin");
    let pinned = speedup(dir, &target, &args);
    let text = stderr(&pinned);
    assert!(matches!(pinned.status.code(), Some(0 | 1)), "{text}");
    if cfg!(target_os = "linux") {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let allowed = status
            .lines()
            .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
            .unwrap()
            .trim();
        let last = allowed.rsplit([',', '-']).next().unwrap();
        assert!(
            text.contains(&format!("every run is pinned to CPU {last} (--pin)")),
            "{allowed}: {text}"
        );
    }
    let report: serde_json::Value = serde_json::from_slice(&pinned.stdout).expect("JSON report");
    assert_eq!(report["benchmarks"].as_array().map(Vec::len), Some(2));
    assert_eq!(report["fingerprint"]["settings"]["pin"], "last-core");

    // In a duet, the runs of each block start together on the last two cores, and the report records it.
    args.pop();
    args.push("--duet");
    let duet = speedup(dir, &target, &args);
    let text = stderr(&duet);
    assert!(matches!(duet.status.code(), Some(0 | 1)), "{text}");
    if cfg!(target_os = "linux") {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let said = if cores >= 2 {
            "the runs of each block start together, one on CPU"
        } else {
            "note: --duet needs two CPU cores and this process may use 1"
        };
        assert!(text.contains(said), "{cores} cores: {text}");
    }
    let report: serde_json::Value = serde_json::from_slice(&duet.stdout).expect("JSON report");
    assert_eq!(report["benchmarks"].as_array().map(Vec::len), Some(2));
    assert_eq!(report["fingerprint"]["settings"]["duet"], "last-two-cores");
    assert_eq!(
        report["fingerprint"]["settings"]["pin"],
        serde_json::Value::Null
    );
}

/// The active rustup toolchain's name (`stable-x86_64-unknown-linux-gnu`), when rustup is installed.
fn active_toolchain() -> Option<String> {
    let out = std::process::Command::new("rustup")
        .args(["show", "active-toolchain"])
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.split_whitespace().next().map(str::to_string)
}

#[test]
fn toolchain_builds_both_revisions_with_the_rustup_toolchain_named() {
    let Some(toolchain) = active_toolchain() else {
        eprintln!("SKIPPED: --toolchain needs rustup, which is not installed here");
        return;
    };
    let _serial = serial();
    let repo = repository();
    let dir = repo.path();
    write_criterion_crate(dir, 200);
    commit(dir, "base");
    write(dir, &[("README.md", "docs\n")]);
    commit(dir, "docs");
    let target = shared_target();
    let mut args = RUN.to_vec();
    args.extend(["--toolchain", &toolchain]);

    let out = speedup(dir, &target, &args);
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("identical executables of `work`"), "{text}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    // The rustc recorded is the named toolchain's, as rustup runs it.
    let rustc = std::process::Command::new("rustup")
        .args(["run", &toolchain, "rustc", "--version"])
        .output()
        .expect("rustup run");
    let version = String::from_utf8_lossy(&rustc.stdout).trim().to_string();
    assert_eq!(report["fingerprint"]["rustc"], version.as_str(), "{report}");
}

/// `main..main` with only an untracked file in the working tree (the HTML report an earlier run wrote): the
/// same commit builds identical executables, nothing runs, and the report says neither that a difference
/// would be the machine's noise (nothing ran to differ) nor anything of the working tree (not compared).
#[test]
fn the_same_commit_twice_with_an_untracked_report_says_nothing_of_noise_or_the_working_tree() {
    let _serial = serial();
    let repo = repository();
    let dir = repo.path();
    write_criterion_crate(dir, 200);
    commit(dir, "base");
    write(dir, &[("report.html", "<!DOCTYPE html>\n")]);
    assert!(git(dir, &["status", "--porcelain"]).contains("?? report.html"));
    let target = shared_target();
    let mut args = RUN.to_vec();
    args[0] = "main..main";
    let format = args
        .iter()
        .position(|a| *a == "--format")
        .expect("--format");
    args[format + 1] = "table";
    let out = speedup(dir, &target, &args);
    let (report, text) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr(&out),
    );
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(!text.contains("running "), "nothing may run: {text}");
    assert!(report.contains("identical executables"), "{report}");
    for said in [&report, &text] {
        assert!(!said.contains("noise"), "{said}");
        assert!(!said.contains("uncommitted"), "{said}");
        assert!(!said.contains("working tree"), "{said}");
    }
}
