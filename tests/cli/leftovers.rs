//! CLI tests of the worktrees a killed run leaves under `target/speedup/worktrees/`: the next measuring run
//! and `cargo speedup clean` remove them, unless a live run holds the lock. The leftovers are made as the
//! tool names them (`git worktree add --detach target/speedup/worktrees/base-SHA SHA`); nothing is built.

use std::fs::File;
use std::path::{Path, PathBuf};

use fs4::FileExt;

use crate::repos::{commit, git, repository, write};
use crate::revisions::MANIFEST;
use crate::support::{run_in, run_with_env};

/// A repository whose one commit holds no manifest, with a crate in the working tree (uncommitted): a
/// comparison of HEAD with the working tree takes the lock, cleans, then stops before building, since
/// HEAD has no Cargo.toml. Returns the repository and the worktree a killed run left.
fn repository_with_a_leftover() -> (tempfile::TempDir, PathBuf) {
    let dir = repository();
    let repo = dir.path();
    write(repo, &[("README", "tiny\n")]);
    commit(repo, "readme");
    write(repo, &[("Cargo.toml", MANIFEST), ("src/lib.rs", "")]);
    let sha = git(repo, &["rev-parse", "HEAD"]).trim().to_string();
    let leftover = repo
        .canonicalize()
        .expect("canonical")
        .join(format!("target/speedup/worktrees/base-{sha}"));
    let path = leftover.to_string_lossy().into_owned();
    git(repo, &["worktree", "add", "--detach", "-q", &path, &sha]);
    assert!(registered(repo, &leftover));
    (dir, leftover)
}

/// Whether `git worktree list` names `path`.
fn registered(repo: &Path, path: &Path) -> bool {
    git(repo, &["worktree", "list", "--porcelain"])
        .lines()
        .any(|line| line == format!("worktree {}", path.display()))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_measuring_run_removes_the_worktrees_a_killed_run_left() {
    let (dir, leftover) = repository_with_a_leftover();
    let output = run_in(dir.path(), &["HEAD"]);
    let stderr = text(&output.stderr);
    // It stopped where it would have built: HEAD has no manifest.
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("has no Cargo.toml"), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "note: removed 1 worktree(s) left by a run that was killed: {}\n",
            leftover.display()
        )),
        "{stderr}"
    );
    assert!(!leftover.exists());
    assert!(!registered(dir.path(), &leftover));
}

#[test]
fn a_leftover_held_by_a_live_run_is_kept() {
    let (dir, leftover) = repository_with_a_leftover();
    // A live run: it holds the lock of target/speedup.
    let lock = File::create(dir.path().join("target/speedup/lock")).expect("lock file");
    FileExt::lock(&lock).expect("lock");
    for args in [&["HEAD"][..], &["clean"], &["clean", "--all"]] {
        let output = run_in(dir.path(), args);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("another cargo speedup run holds"),
            "{args:?}: {stderr}"
        );
        assert!(leftover.exists(), "{args:?} removed a live run's worktree");
        assert!(registered(dir.path(), &leftover), "{args:?}");
    }
    FileExt::unlock(&lock).expect("unlock");
    drop(lock);
    let output = run_in(dir.path(), &["clean"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let speedup = dir
        .path()
        .canonicalize()
        .expect("canonical")
        .join("target/speedup");
    assert_eq!(
        text(&output.stdout),
        format!(
            "removed the worktree {} (left by a run that was killed)\n\
             this project's files are in {}\n",
            leftover.display(),
            speedup.display()
        )
    );
    assert!(!leftover.exists());
    assert!(!registered(dir.path(), &leftover));
    let output = run_in(dir.path(), &["clean"]);
    assert_eq!(
        text(&output.stdout),
        format!(
            "nothing to clean: no worktree left by a killed run (this project's files are in {})\n",
            speedup.display()
        )
    );
}

#[test]
fn clean_all_removes_target_speedup_and_nothing_else() {
    let (dir, leftover) = repository_with_a_leftover();
    let repo = dir.path();
    // A second leftover whose directory is gone but which git still lists.
    let sha = git(repo, &["rev-parse", "HEAD"]).trim().to_string();
    let gone = leftover.with_file_name(format!("head-{sha}"));
    git(
        repo,
        &[
            "worktree",
            "add",
            "--detach",
            "-q",
            &gone.to_string_lossy(),
            &sha,
        ],
    );
    std::fs::remove_dir_all(&gone).expect("rm");
    // What is the user's: criterion's results, a worktree of their own, a branch.
    std::fs::create_dir_all(repo.join("target/criterion/parse")).expect("mkdir");
    std::fs::write(repo.join("target/criterion/parse/x.json"), "{}").expect("write");
    let elsewhere = tempfile::tempdir().expect("tempdir");
    let mine = elsewhere.path().join("mine");
    git(
        repo,
        &[
            "worktree",
            "add",
            "-q",
            "-b",
            "topic",
            &mine.to_string_lossy(),
        ],
    );
    std::fs::create_dir_all(repo.join("target/speedup/cache")).expect("mkdir");
    std::fs::write(repo.join("target/speedup/cache/entry.json"), "{}").expect("write");

    let output = run_in(repo, &["clean", "--all"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let speedup = repo
        .canonicalize()
        .expect("canonical")
        .join("target/speedup");
    assert_eq!(
        text(&output.stdout),
        format!(
            "removed the worktree {} (left by a run that was killed)\n\
             removed the worktree {} (left by a run that was killed)\n\
             removed {}\n",
            leftover.display(),
            gone.display(),
            speedup.display()
        )
    );
    assert!(!repo.join("target/speedup").exists());
    assert!(!registered(repo, &leftover) && !registered(repo, &gone));
    assert!(repo.join("target/criterion/parse/x.json").exists());
    assert!(mine.join("README").exists());
    let canonical_mine = mine.canonicalize().expect("canonical");
    assert!(registered(repo, &canonical_mine) || registered(repo, &mine));
    assert!(git(repo, &["branch", "--list", "topic"]).contains("topic"));
}

/// The directory of the project at `root` under a shared target directory, as `docs/usage.md` §1 names
/// it: the root's last component (`.tmpAbC` of a temporary directory reads `tmpAbC`) and the FNV-1a-64 of
/// its canonical path (offset basis 0xcbf29ce484222325, prime 0x100000001b3: the published algorithm).
fn project_dir(root: &Path) -> String {
    let root = root.canonicalize().expect("canonical");
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in root.to_string_lossy().bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    let name = root.file_name().expect("a name").to_string_lossy();
    format!("{}-{hash:016x}", name.trim_start_matches('.'))
}

#[test]
fn projects_sharing_a_target_directory_keep_their_files_and_locks_apart() {
    let (a, _) = repository_with_a_leftover();
    let (b, _) = repository_with_a_leftover();
    let shared = tempfile::tempdir().expect("tempdir");
    let target = shared.path().canonicalize().expect("canonical");
    let env = [("CARGO_TARGET_DIR", target.as_path())];
    let (dir_a, dir_b) = (
        target.join("speedup").join(project_dir(a.path())),
        target.join("speedup").join(project_dir(b.path())),
    );
    // What an earlier version left in the shared `speedup/`: a worktree of A's, registered with A's
    // repository, and a cache of every project's.
    let sha = git(a.path(), &["rev-parse", "HEAD"]).trim().to_string();
    let old = target.join(format!("speedup/worktrees/base-{sha}"));
    git(
        a.path(),
        &[
            "worktree",
            "add",
            "--detach",
            "-q",
            &old.to_string_lossy(),
            &sha,
        ],
    );
    std::fs::create_dir_all(target.join("speedup/cache")).expect("mkdir");
    std::fs::write(target.join("speedup/cache/entry.json"), "{}").expect("write");
    // A live run in B: it holds the lock of B's directory.
    std::fs::create_dir_all(&dir_b).expect("mkdir");
    let lock = File::create(dir_b.join("lock")).expect("lock file");
    FileExt::lock(&lock).expect("lock");

    // A comparison in A is not blocked by B's run; it takes A's own lock and removes A's old worktree.
    let output = run_with_env(a.path(), &["HEAD"], &env);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("has no Cargo.toml"), "{stderr}");
    assert!(
        !stderr.contains("another cargo speedup run holds"),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!(
            "note: removed 1 worktree(s) left by a run that was killed: {}\n",
            old.display()
        )),
        "{stderr}"
    );
    assert!(!old.exists() && !registered(a.path(), &old));
    assert!(dir_a.join("lock").exists(), "A's lock is in A's directory");

    // `clean` says where A's files are; `clean --all` removes them and the earlier version's shared
    // files, and leaves B's directory alone, lock and all.
    let output = run_with_env(a.path(), &["clean"], &env);
    assert_eq!(
        text(&output.stdout),
        format!(
            "nothing to clean: no worktree left by a killed run (this project's files are in {})\n",
            dir_a.display()
        )
    );
    let output = run_with_env(a.path(), &["clean", "--all"], &env);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(
        text(&output.stdout),
        format!(
            "removed {} (kept by an earlier version for every project of this target directory)\n\
             removed {} (kept by an earlier version for every project of this target directory)\n\
             removed {}\n",
            target.join("speedup/worktrees").display(),
            target.join("speedup/cache").display(),
            dir_a.display()
        )
    );
    assert!(!dir_a.exists() && !target.join("speedup/cache").exists());
    assert!(dir_b.join("lock").exists());
    // B's own clean is refused while its run holds B's lock.
    let output = run_with_env(b.path(), &["clean"], &env);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output.stdout));
    FileExt::unlock(&lock).expect("unlock");
}
