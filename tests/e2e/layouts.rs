//! Layouts sampled (`docs/replication.md` §4): `--layouts 3` links each revision's bench executable in three
//! section orders, the runs of each side spread over them, and the user's repository stays as it was.

use crate::support::*;

#[test]
fn three_layouts_per_side_are_linked_distinct_and_run() {
    let _serial = serial();
    let repo = repository();
    let dir = repo.path();
    write_criterion_crate(dir, 200);
    commit(dir, "one");
    write_criterion_crate(dir, 300);
    commit(dir, "two");
    let target = shared_target();
    let before = repository_state(dir);
    let deps = speedup_dir(dir, &target).join("target/release/deps");
    let executables_before = bench_executables(&deps);

    // RUN without its gate: this test is about layouts, not verdicts.
    let mut args: Vec<&str> = RUN[..9].to_vec();
    args.extend([
        "--format",
        "json",
        "--layouts",
        "3",
        "--rerun",
        "--fixed",
        "--fail-on",
        "none",
    ]);
    let out = speedup(dir, &target, &args);
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    for side in ["BASE", "HEAD"] {
        let line = text
            .lines()
            .find(|l| l.starts_with(side) && l.contains("linked in 3 layouts"))
            .unwrap_or_else(|| panic!("no layouts line for {side}: {text}"));
        assert!(line.contains("3 of 3 executables distinct"), "{line}");
    }
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    let benchmarks = report["benchmarks"].as_array().unwrap();
    assert_eq!(benchmarks.len(), 2, "{report}");
    for b in benchmarks {
        for side in ["base", "head"] {
            assert_eq!(b["variance"][side]["layouts"], 3, "{side}: {b}");
            assert_eq!(b[side]["runs"], 6, "{side}: {b}");
        }
    }
    // Two layouts ran twice each per side: the between-layout component can be estimated.
    assert!(benchmarks[0]["variance"]["base"]["between_layout_pct"].is_number());
    assert_eq!(repository_state(dir), before);
    // The runs done, the relinked layouts are gone: one executable per revision stays, the one as built.
    for side in ["base", "head"] {
        let kept = files_under(&speedup_dir(dir, &target).join("bin").join(side));
        assert_eq!(kept.len(), 1, "{side}: {kept:?}");
        assert!(kept[0].ends_with("0/000"), "{side}: {kept:?}");
    }
    // Each side's relink compiled the bench crate once more under a unit of its own: that executable is
    // gone from cargo's directory too. At most the one as built is new there (both sides share its name).
    let executables_after = bench_executables(&deps);
    let added: Vec<_> = executables_after
        .iter()
        .filter(|e| !executables_before.contains(e))
        .collect();
    assert!(added.len() <= 1, "{added:?}");
    // The runs read, what criterion saved in them is gone.
    for side in ["base", "head"] {
        let runs = speedup_dir(dir, &target).join("runs").join(side);
        assert!(!runs.exists(), "{runs:?}");
    }
}

/// The fixture's bench executables (`work-HASH`, not its `.d` file) in cargo's `deps` directory.
fn bench_executables(deps: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(deps)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with("work-") && !n.contains('.'))
                .collect()
        })
        .unwrap_or_default()
}

/// Every file under `dir`, as the path of its directory.
fn files_under(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                found.push(dir.clone());
            }
        }
    }
    found
}

#[test]
fn zero_layouts_is_refused() {
    let repo = plain_crate();
    let dir = repo.path();
    let out = speedup(dir, &dir.join("target"), &["HEAD..HEAD", "--layouts", "0"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--layouts"), "{}", stderr(&out));
}

/// A repository whose one commit is a crate without dependencies and a bench target that does nothing.
fn plain_crate() -> tempfile::TempDir {
    let repo = repository();
    write(
        repo.path(),
        &[
            (
                "Cargo.toml",
                "[package]\nname = \"p\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[[bench]]\nname = \"b\"\nharness = false\n",
            ),
            ("src/lib.rs", ""),
            ("benches/b.rs", "fn main() {}\n"),
            (".gitignore", "target\n"),
        ],
    );
    commit(repo.path(), "one");
    repo
}

/// GNU ld (bfd), which the C compiler driver finds on Linux, has no `--shuffle-sections`.
#[test]
fn a_linker_that_cannot_shuffle_leaves_one_layout_with_a_note() {
    let repo = plain_crate();
    let dir = repo.path();
    let out = speedup_with_env(
        dir,
        &dir.join("target"),
        &[
            "HEAD..HEAD",
            "--run-identical",
            "--runs",
            "2",
            "--layouts",
            "2",
            // The fixture's bench is a plain `main` standing in for criterion's.
            "--harness",
            "criterion",
        ],
        &[("RUSTFLAGS", "-C link-arg=-fuse-ld=bfd")],
    );
    let text = stderr(&out);
    assert!(text.contains("cannot shuffle sections"), "{text}");
    assert!(!text.contains("linked in 2 layouts"), "{text}");
}

#[cfg(unix)]
#[test]
fn a_shuffled_link_that_fails_exits_2_with_the_linkers_message_and_the_fix() {
    let repo = plain_crate();
    let dir = repo.path();
    // A linker that links as rustc asks, except with shuffled sections.
    let linker = dir.join("target/refuses-to-shuffle");
    write(
        dir,
        &[(
            "target/refuses-to-shuffle",
            "#!/bin/sh\ncase \"$*\" in *--shuffle-sections*) echo 'no shuffling here' >&2; exit 1;; esac\nexec cc \"$@\"\n",
        )],
    );
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&linker, std::fs::Permissions::from_mode(0o755)).unwrap();
    let flags = format!("-C linker={}", linker.display());
    let before = repository_state(dir);
    let out = speedup_with_env(
        dir,
        &dir.join("target"),
        // The fixture's bench is a plain `main` standing in for criterion's.
        &[
            "HEAD..HEAD",
            "--run-identical",
            "--runs",
            "2",
            "--harness",
            "criterion",
        ],
        &[("RUSTFLAGS", &flags)],
    );
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(text.contains("with shuffled sections failed"), "{text}");
    assert!(text.contains("no shuffling here"), "{text}");
    assert!(text.contains("hint: pass --layouts fixed"), "{text}");
    assert_eq!(repository_state(dir), before);
}
