//! CLI tests of where commands write: no output replaces an input or another output, whatever path leads
//! to it, and `-` is standard output. Each refusal exits 2 before anything is read, and leaves every file as
//! it was.

use std::fs;
use std::path::Path;

use crate::support::{copy_tree, root, run_in, run_with_env};

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A directory holding copies of the example's `base.json` and `head.json`.
fn example_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for side in ["base.json", "head.json"] {
        fs::copy(
            root().join("fixtures/example").join(side),
            dir.path().join(side),
        )
        .expect("copy");
    }
    dir
}

/// The bytes of every file in `dir`, by name.
fn contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<_> = fs::read_dir(dir)
        .expect("the directory")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.is_file())
        .map(|p| {
            let name = p
                .file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            (name, fs::read(&p).expect("readable"))
        })
        .collect();
    files.sort();
    files
}

/// Runs `args` in `dir` and checks that it is refused (exit 2) with `expected` and a hint, leaving `dir` as
/// it was.
fn assert_refused(dir: &Path, args: &[&str], expected: &str) {
    let before = contents(dir);
    let output = run_in(dir, args);
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {message}");
    assert!(message.contains(expected), "{args:?}: {message}");
    assert!(message.contains("\nhint: "), "{args:?}: {message}");
    assert!(output.stdout.is_empty(), "{args:?}: nothing is reported");
    assert_eq!(contents(dir), before, "{args:?} changed a file");
}

#[test]
fn an_output_that_is_an_input_is_refused_however_it_is_named() {
    let dir = example_copy();
    let absolute = dir.path().join("head.json").display().to_string();
    #[cfg(unix)]
    std::os::unix::fs::symlink("head.json", dir.path().join("link.json")).expect("symlink");
    fs::hard_link(dir.path().join("head.json"), dir.path().join("hard.json")).expect("link");
    fs::create_dir(dir.path().join("sub")).expect("mkdir");
    let compare = ["compare", "base.json", "head.json"];
    let head = "refusing to overwrite input `head.json`";
    let mut cases = vec![
        (vec!["-o", "head.json"], head.to_string()),
        (
            vec!["--json", "base.json"],
            "refusing to overwrite input `base.json`".into(),
        ),
        (
            vec!["-o", &absolute],
            format!("{head} (the output `{absolute}` is that file)"),
        ),
        (
            vec!["-o", "hard.json"],
            format!("{head} (the output `hard.json` is that file)"),
        ),
        (vec!["--json", "sub/../head.json"], head.to_string()),
    ];
    if cfg!(unix) {
        cases.push((
            vec!["-o", "link.json"],
            format!("{head} (the output `link.json` is that file)"),
        ));
    }
    for (extra, expected) in cases {
        let args: Vec<&str> = compare.iter().copied().chain(extra).collect();
        assert_refused(dir.path(), &args, &expected);
    }
    // A selector names part of the file; the file is still an input.
    let selected = [
        "compare",
        "base.json",
        "head.json#cpu_time",
        "-o",
        "head.json",
    ];
    assert_refused(
        dir.path(),
        &selected,
        "refusing to overwrite input `head.json`",
    );
}

#[test]
fn two_outputs_to_one_file_are_refused() {
    let dir = example_copy();
    for other in ["same.txt", "./same.txt"] {
        let args = [
            "compare",
            "base.json",
            "head.json",
            "-o",
            "same.txt",
            "--json",
            other,
        ];
        assert_refused(
            dir.path(),
            &args,
            "refusing to write `-o` and `--json` to the same file",
        );
        assert!(!dir.path().join("same.txt").exists());
    }
}

#[test]
fn a_dash_is_standard_output_not_a_file() {
    let dir = example_copy();
    let output = run_in(
        dir.path(),
        &[
            "compare",
            "base.json",
            "head.json",
            "-o",
            "-",
            "--format",
            "csv",
            "-q",
        ],
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(String::from_utf8_lossy(&output.stdout).starts_with("name,unit,verdict,"));
    let args = [
        "compare",
        "base.json",
        "head.json",
        "-o",
        "r.txt",
        "--json",
        "-",
        "-q",
    ];
    let output = run_in(dir.path(), &args);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON on stdout");
    assert_eq!(json["schema"], "cargo-speedup/1");
    assert!(dir.path().join("r.txt").is_file());
    assert!(!dir.path().join("-").exists(), "no file named `-`");
    let both = [
        "compare",
        "base.json",
        "head.json",
        "-o",
        "-",
        "--json",
        "-",
    ];
    assert_refused(
        dir.path(),
        &both,
        "`-o -` and `--json -` both write to standard output",
    );
    let json_only = ["compare", "base.json", "head.json", "--json", "-"];
    assert_refused(
        dir.path(),
        &json_only,
        "`--json -` writes to standard output",
    );
}

#[test]
fn an_output_inside_a_criterion_directory_read_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let criterion = dir.path().join("criterion");
    copy_tree(&root().join("fixtures/sources/criterion/real"), &criterion);
    assert_refused(
        dir.path(),
        &[
            "compare",
            "criterion#before",
            "criterion#after",
            "-o",
            "criterion/r.txt",
        ],
        "refusing to write `-o criterion/r.txt` inside the directory `criterion`, which is read",
    );
    // A baseline name reads the criterion home.
    let args = [
        "compare",
        "before",
        "after",
        "--json",
        "criterion/fib_20/r.json",
    ];
    let output = run_with_env(dir.path(), &args, &[("CRITERION_HOME", &criterion)]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("inside the directory"),
        "{}",
        stderr(&output)
    );
    assert!(!criterion.join("fib_20/r.json").exists());
}

#[test]
fn measuring_commands_check_their_outputs_before_running_anything() {
    // Refused before any git or cargo work: the directory is no repository and holds no crate.
    let dir = tempfile::tempdir().expect("tempdir");
    fs::write(dir.path().join("Cargo.toml"), "[package]\n").expect("write");
    let same = ["HEAD~1..HEAD", "-o", "r.txt", "--json", "r.txt"];
    assert_refused(
        dir.path(),
        &same,
        "refusing to write `-o` and `--json` to the same file",
    );
    let dashes = ["HEAD~1..HEAD", "-o", "-", "--json", "-"];
    assert_refused(dir.path(), &dashes, "both write to standard output");
    let manifest = ["record", "-o", "Cargo.toml"];
    assert_refused(
        dir.path(),
        &manifest,
        "refusing to overwrite input `Cargo.toml`",
    );
}

#[test]
fn speeduptest_outputs_may_not_be_the_config_or_a_sample() {
    let dir = tempfile::tempdir().expect("tempdir");
    fs::write(dir.path().join("base.data"), "1\n2\n3\n").expect("write");
    fs::write(dir.path().join("run.out"), "1\n2\n4\n").expect("write");
    let config = "Name,Sample1,Sample2,ConfLevel,Coef\nx,base.data,run.out,,\n";
    fs::write(dir.path().join("c.csv"), config).expect("write");
    assert_refused(
        dir.path(),
        &["speeduptest", "c.csv", "-o", "run"],
        "refusing to overwrite input `run.out`",
    );
    // Without -o the outputs are named after the config's whole name (`c.csv.out`, ...): a sample of that
    // name is refused too.
    let named = "Name,Sample1,Sample2,ConfLevel,Coef\nx,base.data,c.csv.out,,\n";
    fs::write(dir.path().join("c.csv"), named).expect("write");
    fs::write(dir.path().join("c.csv.out"), "1\n2\n4\n").expect("write");
    assert_refused(
        dir.path(),
        &["speeduptest", "c.csv"],
        "refusing to overwrite input `c.csv.out`",
    );
}

#[test]
fn columns_sets_the_width_of_a_report_that_goes_to_no_terminal() {
    let report = |columns: &str| {
        let args = [
            "compare",
            "fixtures/example/base.json",
            "fixtures/example/head.json",
            "-q",
        ];
        let output = run_with_env(&root(), &args, &[("COLUMNS", Path::new(columns))]);
        String::from_utf8(output.stdout).expect("UTF-8")
    };
    let narrow = report("60");
    for line in narrow.lines() {
        assert!(line.chars().count() <= 60, "{line:?}\n{narrow}");
        assert_eq!(line.trim_end(), line, "trailing spaces: {line:?}");
    }
    // Empty is unset: no width, the table on one line per benchmark.
    let unset = report("");
    assert!(unset.lines().any(|l| l.chars().count() > 60), "{unset}");
    assert!(unset.lines().all(|l| l.trim_end() == l), "{unset}");
}

#[test]
fn html_goes_beside_any_format_and_is_checked_like_json() {
    let dir = example_copy();
    let output = run_in(
        dir.path(),
        &[
            "compare",
            "base.json",
            "head.json",
            "--format",
            "markdown",
            "--html",
            "report.html",
            "-q",
        ],
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(String::from_utf8_lossy(&output.stdout).starts_with("**🔴 Gate failed"));
    let page = fs::read_to_string(dir.path().join("report.html")).expect("the HTML report");
    assert!(page.starts_with("<!DOCTYPE html>") && page.contains("data-plot=\"curve\""));
    assert_refused(
        dir.path(),
        &["compare", "base.json", "head.json", "--html", "-"],
        "`--html -` writes to standard output",
    );
    assert_refused(
        dir.path(),
        &["compare", "base.json", "head.json", "--html", "head.json"],
        "refusing to overwrite input `head.json`",
    );
    assert_refused(
        dir.path(),
        &[
            "compare",
            "base.json",
            "head.json",
            "--json",
            "r.out",
            "--html",
            "r.out",
        ],
        "refusing to write `--json` and `--html` to the same file",
    );
}
