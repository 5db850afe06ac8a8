//! What goes wrong: each fault exits 2 with a message naming it and leaves no worktree or lock behind.
//! These repositories have no dependencies, so they build in a moment in their own target directory.

use std::path::Path;

use crate::support::*;

const MANIFEST: &str = "[package]\nname = \"plain\"\nversion = \"0.1.0\"\nedition = \"2021\"\n";

/// [`MANIFEST`] with the bench target `benches/b.rs`, run without a harness.
fn with_bench() -> String {
    format!("{MANIFEST}\n[[bench]]\nname = \"b\"\nharness = false\n")
}

/// A repository whose one commit holds the crate: [`MANIFEST`] alone, or with `benches/b.rs` = `bench`.
fn crate_repository(bench: Option<&str>, message: &str) -> tempfile::TempDir {
    let repo = repository();
    let manifest = if bench.is_some() {
        with_bench()
    } else {
        MANIFEST.to_string()
    };
    let mut files = vec![
        ("Cargo.toml", manifest.as_str()),
        ("src/lib.rs", ""),
        (".gitignore", "target\n"),
    ];
    files.extend(bench.map(|b| ("benches/b.rs", b)));
    write(repo.path(), &files);
    commit(repo.path(), message);
    repo
}

/// Runs `cargo speedup ARGS` in `dir`, asserts exit status 2 and returns its stderr.
fn fails(dir: &Path, args: &[&str]) -> String {
    let out = speedup(dir, &dir.join("target"), args);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    stderr(&out)
}

fn assert_left_nothing(dir: &Path) {
    assert_eq!(git(dir, &["worktree", "list"]).lines().count(), 1);
    let speedup = dir.join("target/speedup");
    let worktrees = speedup.join("worktrees");
    assert_eq!(
        std::fs::read_dir(&worktrees)
            .map(|d| d.count())
            .unwrap_or(0),
        0
    );
    let lock = std::fs::read_to_string(speedup.join("lock")).unwrap_or_default();
    assert_eq!(lock, "");
}

#[test]
fn an_unknown_revision_is_named() {
    let repo = crate_repository(None, "one");
    let dir = repo.path();
    let text = fails(dir, &["no-such-branch..HEAD"]);
    assert!(text.contains("unknown revision `no-such-branch`"), "{text}");
    assert_left_nothing(dir);
}

#[test]
fn outside_a_git_repository_comparing_revisions_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), &[("Cargo.toml", MANIFEST), ("src/lib.rs", "")]);
    let text = fails(dir.path(), &["main..HEAD"]);
    assert!(text.contains("is not inside a git repository"), "{text}");
}

#[test]
fn a_build_failure_shows_cargos_error_and_removes_the_worktrees() {
    let repo = crate_repository(Some("fn main() {}\n"), "builds");
    let dir = repo.path();
    write(
        dir,
        &[("benches/b.rs", "fn main() { let x: u32 = \"text\"; }\n")],
    );
    commit(dir, "does not build");
    let text = fails(dir, &["HEAD~1..HEAD"]);
    assert!(text.contains("building HEAD (HEAD, "), "{text}");
    assert!(text.contains("mismatched types"), "{text}");
    assert_left_nothing(dir);
}

#[test]
fn a_revision_without_benchmarks_is_named() {
    let repo = crate_repository(None, "no benches");
    let dir = repo.path();
    let text = fails(dir, &["HEAD"]);
    assert!(text.contains("has no benchmarks to run"), "{text}");
    assert_left_nothing(dir);
}

#[test]
fn a_crashing_benchmark_is_named_with_its_output() {
    let crash = "fn main() { eprintln!(\"boom here\"); std::process::exit(3); }\n";
    let repo = crate_repository(Some(crash), "crashes");
    let dir = repo.path();
    // The crashing bench is a plain `main` standing in for criterion's.
    let text = fails(dir, &["HEAD", "--harness", "criterion"]);
    assert!(
        text.contains("the benchmark `b` of BASE (HEAD, ")
            || text.contains("the benchmark `b` of working tree"),
        "{text}"
    );
    assert!(text.contains("boom here"), "{text}");
    assert_left_nothing(dir);
}

#[test]
#[cfg(unix)]
fn ctrl_c_during_a_run_stops_it_and_cleans_up() {
    let sleeper = "fn main() { std::thread::sleep(std::time::Duration::from_secs(60)); }\n";
    let repo = crate_repository(Some(sleeper), "sleeps");
    let dir = repo.path();
    // Its own process group, which receives the signal as a terminal's Ctrl-C would: the benchmark
    // process gets it too.
    use std::os::unix::process::CommandExt;
    let mut child = crate::environment::tool()
        // The sleeping bench is a plain `main` standing in for criterion's.
        .args(["speedup", "HEAD..HEAD", "--harness", "criterion"])
        .process_group(0)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Both revisions are built once HEAD's executables are copied aside; the runs start right after.
    let built = dir.join("target/speedup/bin/head");
    let started = std::time::Instant::now();
    while !built.exists() {
        if started.elapsed().as_secs() > 120 {
            let _ = child.kill();
            panic!("the build never finished");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    let interrupted_at = std::time::Instant::now();
    let kill = std::process::Command::new("kill")
        .args(["-INT", "--", &format!("-{}", child.id())])
        .status()
        .unwrap();
    assert!(kill.success());
    let out = child.wait_with_output().unwrap();
    assert!(
        interrupted_at.elapsed().as_secs() < 20,
        "it did not stop promptly"
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("interrupted"), "{}", stderr(&out));
    // Nothing finished running: no word of noise.
    assert!(!stderr(&out).contains("noise"), "{}", stderr(&out));
    assert_left_nothing(dir);
}

#[test]
fn a_revision_without_the_manifest_is_named() {
    let repo = repository();
    let dir = repo.path();
    write(
        dir,
        &[("README", "before the crate\n"), (".gitignore", "target\n")],
    );
    commit(dir, "no crate yet");
    write(
        dir,
        &[
            ("Cargo.toml", &with_bench()),
            ("src/lib.rs", ""),
            ("benches/b.rs", "fn main() {}\n"),
        ],
    );
    commit(dir, "the crate");
    let text = fails(dir, &["HEAD~1..HEAD"]);
    assert!(text.contains("BASE (HEAD~1, "), "{text}");
    assert!(text.contains("has no Cargo.toml"), "{text}");
    assert_left_nothing(dir);
}

#[test]
fn three_dots_compare_the_merge_base_with_head() {
    let repo = repository();
    let dir = repo.path();
    write(
        dir,
        &[("README", "the fork point\n"), (".gitignore", "target\n")],
    );
    commit(dir, "fork point");
    let fork = git(dir, &["rev-parse", "HEAD"]);
    git(dir, &["checkout", "-q", "-b", "topic"]);
    write(dir, &[("Cargo.toml", MANIFEST), ("src/lib.rs", "")]);
    commit(dir, "topic work");
    git(dir, &["checkout", "-q", "main"]);
    write(
        dir,
        &[("Cargo.toml", MANIFEST), ("src/lib.rs", "// main\n")],
    );
    commit(dir, "main moves on");
    // The fork point has no Cargo.toml: the error names it, which shows which commit BASE is.
    let text = fails(dir, &["main...topic"]);
    let short = &fork.trim()[..10];
    assert!(
        text.contains(&format!("BASE (merge-base(main, topic), {short})")),
        "{text}"
    );
    assert!(text.contains("has no Cargo.toml"), "{text}");
    assert_left_nothing(dir);
}
