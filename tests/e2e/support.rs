//! Test repositories and running the binary on them. Every process starts in the tests' known
//! environment (`environment.rs`): git, cargo and the binary alike.

use std::path::Path;
use std::process::{Command, Output};

pub(crate) use crate::environment::{cargo, command, tool};

#[path = "shared.rs"]
mod shared;
// The CLI suite includes this file too, and builds nothing.
#[allow(unused_imports)]
pub(crate) use shared::{Slot, serial, shared_target};

/// Where `cargo speedup` keeps its files for the project at `dir` (its repository's root) when cargo's
/// target directory is `target`, as `docs/usage.md` §1 names it: `target/speedup` when `target` lies
/// inside the project, else `target/speedup/<root's last component>-<FNV-1a-64 of the root's path>`
/// (offset basis 0xcbf29ce484222325, prime 0x100000001b3: the published algorithm).
pub(crate) fn speedup_dir(dir: &Path, target: &Path) -> std::path::PathBuf {
    let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let root = command("git")
        .args(["rev-parse", "--show-toplevel"])
        .current_dir(dir)
        .output()
        .ok()
        .filter(|out| out.status.success())
        .map(|out| Path::new(String::from_utf8_lossy(&out.stdout).trim()).to_path_buf())
        .unwrap_or_else(|| dir.to_path_buf());
    let (root, target) = (canonical(&root), canonical(target));
    if target.starts_with(&root) {
        return target.join("speedup");
    }
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in root.to_string_lossy().bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    let name = root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    target
        .join("speedup")
        .join(format!("{}-{hash:016x}", name.trim_start_matches('.')))
}

/// `HEAD~1..HEAD` with the shortest criterion settings (a millisecond of warm-up and of measurement; the
/// fixtures' slowdowns are five-fold), a fixed plan of 6 process runs per side of 10 samples each (enough
/// for the rank-sum test to reject at 0.05 after Holm's correction), the strictest gate and a JSON report.
/// The executables as built run, without relinked layouts (what `tests/e2e/layouts.rs` tests): the tests
/// that take `RUN` whole are about verdicts, not layouts.
pub(crate) const RUN: [&str; 16] = [
    "HEAD~1..HEAD",
    "--warm-up-time",
    "0.001",
    "--measurement-time",
    "0.001",
    "--sample-size",
    "10",
    "--runs",
    "6",
    "--fail-on",
    "any",
    "--format",
    "json",
    "--fixed",
    "--layouts",
    "fixed",
];

/// Runs `git ARGS` in `dir` and returns its stdout; panics with its stderr on failure.
pub(crate) fn git(dir: &Path, args: &[&str]) -> String {
    let mut command = command("git");
    command
        .args(["-c", "user.name=Test", "-c", "user.email=test@example.com"])
        .args([
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir);
    succeed(&mut command, &format!("git {args:?}"))
}

/// Runs `command` and returns its stdout; panics with `what` and its stderr on failure.
pub(crate) fn succeed(command: &mut Command, what: &str) -> String {
    let out = command.output().expect("the command runs");
    assert!(
        out.status.success(),
        "{what}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Writes `files` (path, content) under `dir`.
pub(crate) fn write(dir: &Path, files: &[(&str, &str)]) {
    for (path, content) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }
}

/// Adds everything and commits.
pub(crate) fn commit(dir: &Path, message: &str) {
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", message]);
}

/// A repository of the fixture crate whose second commit makes `changed` five times slower.
pub(crate) fn slowed_repository() -> tempfile::TempDir {
    let repo = repository();
    write_criterion_crate(repo.path(), 200);
    commit(repo.path(), "fast");
    write_criterion_crate(repo.path(), 1000);
    commit(repo.path(), "five times slower");
    repo
}

/// A new repository in a temporary directory.
pub(crate) fn repository() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "-q"]);
    dir
}

/// A crate whose `benches/work.rs` has two criterion benchmarks: `changed` spins `loops` times, `same`
/// always 200 times.
pub(crate) fn criterion_crate(loops: u32) -> Vec<(&'static str, String)> {
    let manifest = r#"[package]
name = "demo"
version = "0.1.0"
edition = "2021"

[dev-dependencies]
criterion = { version = "0.8", default-features = false, features = ["cargo_bench_support"] }

[[bench]]
name = "work"
harness = false

# Unoptimised, so that each test compiles its crate in a moment: the fixtures' slowdowns are loop counts
# five times apart, which any optimisation level keeps.
[profile.bench]
opt-level = 0
"#;
    let lib = "pub fn spin(n: u64) -> u64 {\n    (0..n).fold(0u64, |a, i| a.wrapping_mul(31).wrapping_add(i ^ (a >> 3)))\n}\n";
    let bench = format!(
        r#"use criterion::{{criterion_group, criterion_main, Criterion}};
use std::hint::black_box;

fn bench(c: &mut Criterion) {{
    c.bench_function("changed", |b| b.iter(|| demo::spin(black_box({loops}))));
    c.bench_function("same", |b| b.iter(|| demo::spin(black_box(200))));
}}

criterion_group!(benches, bench);
criterion_main!(benches);
"#
    );
    vec![
        ("Cargo.toml", manifest.to_string()),
        ("src/lib.rs", lib.to_string()),
        ("benches/work.rs", bench),
        (".gitignore", "target\n".to_string()),
    ]
}

/// Writes the files of [`criterion_crate`] and, the first time, its lock file ([`generate_lockfile`]).
pub(crate) fn write_criterion_crate(dir: &Path, loops: u32) {
    let files = criterion_crate(loops);
    let borrowed: Vec<(&str, &str)> = files.iter().map(|(p, c)| (*p, c.as_str())).collect();
    write(dir, &borrowed);
    if !dir.join("Cargo.lock").exists() {
        generate_lockfile(dir);
    }
}

/// Locks the crate in `dir` to the versions of this repository's own `Cargo.lock` (criterion is one of its
/// dev-dependencies, so they are downloaded: `cargo test` built them), offline: every fixture crate then
/// resolves alike, whatever else the local registry cache holds (a newer `zerocopy` downloaded without its
/// `zerocopy-derive` made `cargo generate-lockfile --offline` pick a crate it could not build), and their
/// dependencies build once in the shared target directory. An existing lock file is kept and updated for
/// the crate's own packages (a version bump).
pub(crate) fn generate_lockfile(dir: &Path) {
    let lock = dir.join("Cargo.lock");
    if !lock.exists() {
        std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.lock"), &lock)
            .expect("copy this repository's Cargo.lock");
    }
    let mut command = cargo();
    command
        .args(["update", "--workspace", "--offline", "--quiet"])
        .current_dir(dir);
    if command.output().is_ok_and(|out| out.status.success()) {
        return;
    }
    // A dependency this repository does not lock (divan) is not in cargo's cache on a fresh machine: the
    // registry has it, and the offline builds that follow need its source.
    for args in [
        &["update", "--workspace", "--quiet"][..],
        &["fetch", "--quiet"],
    ] {
        let mut command = cargo();
        command.args(args).current_dir(dir);
        succeed(&mut command, &format!("cargo {args:?}"));
    }
}

/// Runs `cargo-speedup speedup ARGS...` in `dir` with `target` as cargo's target directory, offline.
pub(crate) fn speedup(dir: &Path, target: &Path, args: &[&str]) -> Output {
    speedup_with_env(dir, target, args, &[])
}

/// `command` set to run in `dir`, offline, with `target` as cargo's target directory.
pub(crate) fn offline_in(mut command: Command, dir: &Path, target: &Path) -> Command {
    command
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .env("CARGO_NET_OFFLINE", "true");
    command
}

/// [`speedup`] with more environment variables (they win over the ones [`speedup`] sets).
pub(crate) fn speedup_with_env(
    dir: &Path,
    target: &Path,
    args: &[&str],
    env: &[(&str, &str)],
) -> Output {
    // The builds of the project's own directory start from the seed's dependencies.
    shared::plant_for(&speedup_dir(dir, target));
    offline_in(tool(), dir, target)
        .arg("speedup")
        .args(args)
        .env("NO_COLOR", "1")
        .envs(env.iter().copied())
        .output()
        .expect("the binary runs")
}

/// What a comparison must leave as it was: status, HEAD, branches, stash, worktrees.
pub(crate) fn repository_state(dir: &Path) -> Vec<String> {
    [
        &["status", "--porcelain"][..],
        &["rev-parse", "HEAD"],
        &["branch", "--list", "-v"],
        &["stash", "list"],
        &["worktree", "list", "--porcelain"],
    ]
    .iter()
    .map(|args| git(dir, args))
    .collect()
}

/// `cargo speedup ARGS` run as [`speedup`] runs it, its exit status asserted to be `code` (its standard
/// error in the message), and the JSON report it printed on standard output.
pub(crate) fn json_report(
    dir: &Path,
    target: &Path,
    args: &[&str],
    code: i32,
) -> serde_json::Value {
    let out = speedup(dir, target, args);
    assert_eq!(out.status.code(), Some(code), "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).expect("JSON report")
}

/// stderr as text.
pub(crate) fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Characters that change what a reader sees without being seen themselves (controls, bidi overrides and
/// isolates, marks, zero-width and format characters): no sink may write one raw.
pub(crate) fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}'
                | '\u{2029}'
                | '\u{200b}'..='\u{200f}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2060}'..='\u{206f}'
                | '\u{061c}'
                | '\u{feff}'
        )
}
