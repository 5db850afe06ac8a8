//! CLI tests of inputs that are too large, endless, not text or not what they claim, given to `compare` and
//! `merge`: each exits 2 at once with one message naming the file, the limit or the place, and the fix
//! (`docs/formats.md` §11).

use std::path::Path;

use crate::support::{root, run_in};

/// Runs `cargo speedup ARGS` in `dir`; its exit status and standard error.
fn refused(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = run_in(dir, args);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn example_head() -> String {
    root()
        .join("fixtures/example/head.json")
        .display()
        .to_string()
}

#[test]
fn an_endless_input_stops_at_the_size_limit() {
    let dir = tempfile::tempdir().unwrap();
    let expected = "error: /dev/zero: more than the size limit of one input, 256 MiB\nhint: if it \
                    really holds results, raise the limit: `--max-input-size 512MiB`\n";
    let (status, stderr) = refused(dir.path(), &["compare", "/dev/zero", &example_head()]);
    assert_eq!((status, stderr.as_str()), (Some(2), expected));
    let (status, stderr) = refused(dir.path(), &["merge", "/dev/zero", "p.json"]);
    assert_eq!(
        (status, stderr.as_str()),
        (Some(2), format!("error: part {}", &expected[7..]).as_str())
    );
}

#[test]
fn a_file_over_the_size_limit_is_refused_and_the_flag_raises_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(root().join("fixtures/example/base.json")).unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    value["benchmarks"].as_array_mut().unwrap().truncate(1);
    let mut compact = value.to_string();
    assert!(compact.len() < 1024, "{}", compact.len());
    // Padded with spaces inside the object to one byte over 1 KiB: still valid JSON.
    let pad = " ".repeat(1025 - compact.len());
    compact.insert_str(1, &pad);
    std::fs::write(dir.path().join("big.json"), &compact).unwrap();
    let (status, stderr) = refused(
        dir.path(),
        &["compare", "big.json", "big.json", "--max-input-size", "1K"],
    );
    assert_eq!(
        (status, stderr.as_str()),
        (
            Some(2),
            "error: big.json: 1025 bytes, more than the size limit of one input, 1 KiB\nhint: if it \
             really holds results, raise the limit: `--max-input-size 2KiB`\n"
        )
    );
    let raised = run_in(
        dir.path(),
        &[
            "compare",
            "big.json",
            "big.json",
            "--max-input-size",
            "2KiB",
        ],
    );
    assert_eq!(
        raised.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&raised.stderr)
    );
    let (status, stderr) = refused(dir.path(), &["merge", "big.json", "--max-input-size", "1K"]);
    assert_eq!(status, Some(2), "{stderr}");
    assert!(
        stderr.starts_with("error: part big.json: 1025 bytes, more than the size limit"),
        "{stderr}"
    );
    let (status, stderr) = refused(
        dir.path(),
        &["merge", "big.json", "--max-input-size", "lots"],
    );
    assert_eq!(status, Some(2), "{stderr}");
    assert!(stderr.contains("`lots` is not a size"), "{stderr}");
}

#[test]
fn standard_input_is_refused_as_both_sides() {
    let dir = tempfile::tempdir().unwrap();
    let (status, stderr) = refused(dir.path(), &["compare", "-", "-"]);
    assert_eq!(
        (status, stderr.as_str()),
        (
            Some(2),
            "error: BASE and HEAD are both `-`, but standard input can be read only once\nhint: save \
             one side to a file first, e.g. `cargo speedup compare base.json -`\n"
        )
    );
}

#[test]
fn bytes_that_are_not_utf8_are_named_with_their_place() {
    let dir = tempfile::tempdir().unwrap();
    // A benchmark named `café` in Latin-1: é is the byte 0xe9.
    let text =
        b"{\"unit\": \"ns\",\n \"benchmarks\": [{\"name\": \"caf\xe9\", \"samples\": [1, 2]}]}";
    std::fs::write(dir.path().join("latin1.json"), text).unwrap();
    let expected = "latin1.json: not UTF-8 text: byte 44 (counting from 0; line 2, column 30) is 0xe9, \
                    which is invalid UTF-8 there\nhint: every format this tool reads is UTF-8 text; \
                    convert the file (e.g. `iconv -f latin1 -t utf-8`) or fix the name or value at that \
                    place\n";
    let (status, stderr) = refused(dir.path(), &["compare", "latin1.json", &example_head()]);
    assert_eq!(
        (status, stderr.as_str()),
        (Some(2), format!("error: {expected}").as_str())
    );
    let (status, stderr) = refused(dir.path(), &["merge", "latin1.json"]);
    assert_eq!(
        (status, stderr.as_str()),
        (Some(2), format!("error: part {expected}").as_str())
    );
}

#[test]
fn nesting_deeper_than_any_results_file_is_called_so() {
    let dir = tempfile::tempdir().unwrap();
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    std::fs::write(dir.path().join("deep.json"), &deep).unwrap();
    let (status, stderr) = refused(dir.path(), &["merge", "deep.json"]);
    assert_eq!(
        (status, stderr.as_str()),
        (
            Some(2),
            "error: part deep.json nests arrays and objects 128 levels deep (at line 1 column 128), \
             which no report does\nhint: give the `--json` report a job wrote, as it wrote it\n"
        )
    );
    let inside = format!("{{\"benchmarks\": [{deep}]}}");
    std::fs::write(dir.path().join("inside.json"), &inside).unwrap();
    let (status, stderr) = refused(dir.path(), &["compare", "inside.json", &example_head()]);
    assert_eq!(
        (status, stderr.as_str()),
        (
            Some(2),
            "error: inside.json: nests arrays and objects 128 levels deep at line 1 column 142, \
             which no results file does (read as raw timing JSON)\nhint: give the file a benchmark \
             harness or `cargo speedup record` wrote\n"
        )
    );
}
