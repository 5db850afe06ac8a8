//! `cargo speedup HEAD~1..HEAD` on a crate whose benchmarked code lives in a git submodule (a path
//! dependency, added by a relative URL as projects usually do): the second commit moves the submodule to a
//! commit five times slower. Both revisions must get their own submodule commit, and the user's repository
//! (its config, index, the submodule's checkout, uncommitted changes in it) must stay as it was.

use std::path::Path;

use crate::support::*;

/// Local file URLs are refused by git for submodules unless allowed; allowed here for one process only.
const FILE_PROTOCOL: [(&str, &str); 3] = [
    ("GIT_CONFIG_COUNT", "1"),
    ("GIT_CONFIG_KEY_0", "protocol.file.allow"),
    ("GIT_CONFIG_VALUE_0", "always"),
];

const SUBMODULE: &str = "vendor/spinner";

fn verdict_of(report: &serde_json::Value, name: &str) -> String {
    report["benchmarks"]
        .as_array()
        .and_then(|all| all.iter().find(|b| b["name"] == name))
        .map(|b| b["verdict"].as_str().unwrap_or("").to_string())
        .unwrap_or_else(|| panic!("no benchmark {name} in {report}"))
}

/// The submodule's crate: `work()` spins `loops` times.
fn spinner(loops: u32) -> String {
    format!(
        "pub fn work() -> u64 {{\n    (0..std::hint::black_box({loops}u64)).fold(0u64, |a, i| a.wrapping_mul(31).wrapping_add(i ^ (a >> 3)))\n}}\n"
    )
}

/// The benchmarked crate: `changed` runs the submodule's `work()`, `same` the crate's own `spin(200)`.
fn app_files() -> Vec<(&'static str, String)> {
    let mut files = criterion_crate(200);
    for (path, content) in files.iter_mut() {
        if *path == "Cargo.toml" {
            *content = content.replace(
                "[dev-dependencies]",
                "[dependencies]\nspinner = { path = \"vendor/spinner\" }\n\n[dev-dependencies]",
            );
        } else if *path == "benches/work.rs" {
            *content = content.replace(
                "demo::spin(black_box(200))));\n    c.bench_function(\"same\"",
                "black_box(spinner::work())));\n    c.bench_function(\"same\"",
            );
            assert!(content.contains("spinner::work()"), "{content}");
        }
    }
    files
}

/// Everything of the user's repository a comparison must not change, the submodule included.
fn state(app: &Path) -> Vec<String> {
    let sub = app.join(SUBMODULE);
    let mut all = repository_state(app);
    all.push(std::fs::read_to_string(app.join(".git/config")).unwrap());
    all.push(git(app, &["submodule", "status"]));
    all.push(git(app, &["ls-files", "--stage", SUBMODULE]));
    if sub.join(".git").exists() {
        all.push(git(&sub, &["status", "--porcelain"]));
        all.push(git(&sub, &["rev-parse", "HEAD"]));
        all.push(std::fs::read_to_string(sub.join("src/lib.rs")).unwrap());
    } else {
        all.push(format!(
            "{:?}",
            std::fs::read_dir(&sub).map(|d| d.count()).ok()
        ));
    }
    all
}

fn no_worktree_left(app: &Path, target: &Path) {
    let worktrees = speedup_dir(app, target).join("worktrees");
    assert_eq!(
        std::fs::read_dir(&worktrees)
            .map(|d| d.count())
            .unwrap_or(0),
        0
    );
    assert!(
        !app.join(".git/worktrees").exists()
            || std::fs::read_dir(app.join(".git/worktrees"))
                .unwrap()
                .count()
                == 0,
        "git still lists a worktree of ours"
    );
}

#[test]
fn a_submodule_moved_to_a_slower_commit_is_measured_at_both_revisions() {
    let _serial = serial();
    let root = tempfile::tempdir().unwrap();
    let sub = root.path().join("spinner");
    let app = root.path().join("app");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::create_dir_all(&app).unwrap();

    git(&sub, &["init", "-q"]);
    let manifest = "[package]\nname = \"spinner\"\nversion = \"0.1.0\"\nedition = \"2021\"\n";
    write(
        &sub,
        &[("Cargo.toml", manifest), ("src/lib.rs", &spinner(200))],
    );
    commit(&sub, "fast");
    write(&sub, &[("src/lib.rs", &spinner(1000))]);
    commit(&sub, "five times slower");
    let slow = git(&sub, &["rev-parse", "HEAD"]);
    git(&sub, &["checkout", "-q", "HEAD~1"]);

    git(&app, &["init", "-q"]);
    git(
        &app,
        &[
            "-c",
            "protocol.file.allow=always",
            "submodule",
            "add",
            "-q",
            "../spinner",
            SUBMODULE,
        ],
    );
    let files = app_files();
    let borrowed: Vec<(&str, &str)> = files.iter().map(|(p, c)| (*p, c.as_str())).collect();
    write(&app, &borrowed);
    generate_lockfile(&app);
    commit(&app, "fast");
    let in_app = app.join(SUBMODULE);
    git(&in_app, &["checkout", "-q", slow.trim()]);
    commit(&app, "the submodule five times slower");
    assert!(
        std::fs::read_to_string(app.join(".gitmodules"))
            .unwrap()
            .contains("url = ../spinner")
    );

    // Uncommitted, in the submodule's checkout: not part of either revision, and left as it is.
    write(&in_app, &[("src/lib.rs", &spinner(5))]);

    let target = shared_target();
    let _ = std::fs::remove_dir_all(speedup_dir(&app, &target).join("cache"));
    let before = state(&app);
    // The submodule's own repository out of reach, as a server is offline: the user's clone of it
    // (`.git/modules/vendor/spinner`) holds both commits, and is where they come from.
    let away = root.path().join("elsewhere");
    std::fs::rename(&sub, &away).unwrap();
    let out = speedup(&app, &target, &RUN);
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "stderr: {text}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    assert_eq!(verdict_of(&report, "changed"), "slower", "{report}");
    assert!(
        !text.contains("uncommitted"),
        "not compared, not spoken of: {text}"
    );
    assert_eq!(state(&app), before);
    no_worktree_left(&app, &target);

    // As in a clone made without `--recurse-submodules`: the repository's config does not know the
    // submodule, its directory is empty and there is no clone of it in `.git/modules`. Its relative URL is
    // then resolved against the repository, not against our worktree, and the config stays without it.
    git(&app, &["submodule", "deinit", "-q", "-f", SUBMODULE]);
    std::fs::remove_dir_all(app.join(".git/modules")).unwrap();
    std::fs::rename(&away, &sub).unwrap();
    let before = state(&app);
    assert!(!before[5].contains("spinner"), "{}", before[5]);
    // Measured again, not taken from the cache (the commits are the same).
    let mut rerun = RUN.to_vec();
    rerun.push("--rerun");
    let out = speedup_with_env(&app, &target, &rerun, &FILE_PROTOCOL);
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "stderr: {text}");
    assert!(!text.contains("reusing"), "{text}");
    assert!(!text.contains("uncommitted"), "a clean tree: {text}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    assert_eq!(verdict_of(&report, "changed"), "slower", "{report}");
    assert_eq!(state(&app), before);
    no_worktree_left(&app, &target);
}
