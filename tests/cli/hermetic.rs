//! The tests' known environment (`tests/e2e/environment.rs`): the processes they start do not inherit
//! the variables that change what the tool, cargo or git do, whatever the shell that runs `cargo test`
//! holds (CI runs the suite with a `CARGO_TARGET_DIR` outside the clone), and a variable a test sets is
//! passed as set.

use crate::environment::{CLEARED, CLEARED_PREFIXES, cleared, command};
use crate::repos::{repository, write};
use crate::revisions::MANIFEST;
use crate::support::run_in;

/// The variables of `env`'s output, one `NAME=value` a line (a value with a newline continues on the next
/// line, which then has no `=` or a name no test looks for).
fn env_names(stdout: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(stdout)
        .lines()
        .filter_map(|line| line.split_once('=').map(|(name, _)| name.to_string()))
        .collect()
}

#[test]
fn the_command_removes_the_target_directory_and_the_reports_style_whether_set_or_not() {
    let command = command("env");
    let removed: Vec<String> = command
        .get_envs()
        .filter(|(_, value)| value.is_none())
        .map(|(name, _)| name.to_string_lossy().into_owned())
        .collect();
    for name in [
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_TARGET_DIR",
        "CRITERION_HOME",
        "COLUMNS",
        "NO_COLOR",
        "RUSTFLAGS",
        "SOURCE_DATE_EPOCH",
    ] {
        assert!(
            removed.iter().any(|r| r == name),
            "{name} is not removed: {removed:?}"
        );
    }
}

#[test]
fn a_process_started_in_the_known_environment_sees_no_cleared_variable() {
    let out = command("env").output().expect("env runs");
    assert!(out.status.success());
    let names = env_names(&out.stdout);
    let stray: Vec<&String> = names.iter().filter(|name| cleared(name)).collect();
    assert!(stray.is_empty(), "inherited: {stray:?}");
    // The toolchain the tests run with is kept.
    if std::env::var_os("PATH").is_some() {
        assert!(names.iter().any(|n| n == "PATH"), "{names:?}");
    }
}

#[test]
fn a_variable_a_test_sets_is_passed_as_set() {
    let out = command("env")
        .env("CARGO_TARGET_DIR", "/chosen/by/the/test")
        .env("COLUMNS", "61")
        .output()
        .expect("env runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.lines()
            .any(|l| l == "CARGO_TARGET_DIR=/chosen/by/the/test"),
        "{text}"
    );
    assert!(text.lines().any(|l| l == "COLUMNS=61"), "{text}");
}

#[test]
fn what_is_cleared_by_name_or_prefix() {
    for name in [
        "CARGO_TARGET_DIR",
        "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER",
        "CARGO_BUILD_TARGET_DIR",
        "CARGO_PROFILE_BENCH_DEBUG",
        "CARGO_TERM_COLOR",
        "CRITERION_HOME",
        "GIT_DIR",
        "RUST_BACKTRACE",
    ] {
        assert!(cleared(name), "{name}");
    }
    for name in [
        "PATH",
        "HOME",
        "CARGO",
        "CARGO_HOME",
        "RUSTC",
        "RUSTUP_TOOLCHAIN",
        "RUSTUP_HOME",
        "CARGO_NET_OFFLINE",
        "CARGO_HTTP_TIMEOUT",
        "CARGO_REGISTRIES_CRATES_IO_PROTOCOL",
    ] {
        assert!(
            !cleared(name),
            "{name} names the toolchain or the registry: kept"
        );
    }
    assert!(CLEARED.iter().all(|name| !name.is_empty()));
    assert!(CLEARED_PREFIXES.iter().all(|p| p.ends_with('_')));
}

/// The tool itself: in a crate of its own, started by the suite's runner, it keeps its files in the
/// project's `target/speedup` (the cargo default), not under a `CARGO_TARGET_DIR` of the shell that runs
/// the tests.
#[test]
fn the_tool_keeps_its_files_in_the_projects_own_target_directory() {
    let dir = repository();
    write(dir.path(), &[("Cargo.toml", MANIFEST), ("src/lib.rs", "")]);
    let output = run_in(dir.path(), &["clean"]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let speedup = dir
        .path()
        .canonicalize()
        .expect("canonical")
        .join("target/speedup");
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        format!(
            "nothing to clean: no worktree left by a killed run (this project's files are in {})\n",
            speedup.display()
        )
    );
}
