//! The hostile corpus (`tests/hostile/names.json`) through `compare`, as a user would run it on results
//! files a pull request produced: one test per sink, each asserting that nothing of the names acts there.
//! The results hold every corpus name (HEAD twice as slow on every other one, so that gate reasons and
//! warnings quote them) and a name on each side only (the summary lists those).

use std::path::Path;
use std::process::Output;

use serde_json::{Value, json};
use unicode_width::UnicodeWidthStr;

use crate::repos::hidden;
use crate::support::{hostile_names, run_with_env};

/// The two results files in `dir`.
fn hostile_results(dir: &Path) -> Vec<String> {
    let names = hostile_names();
    let side = |slower: bool, only: &str| {
        let mut benchmarks: Vec<Value> = names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let factor = if slower && i % 2 == 0 { 2.0 } else { 1.0 };
                let samples: Vec<f64> =
                    (0..10).map(|k| factor * (100.0 + 0.5 * k as f64)).collect();
                json!({ "name": name, "samples": samples })
            })
            .collect();
        benchmarks.push(json!({ "name": only, "samples": [1.0, 2.0, 3.0] }));
        json!({ "unit": "ns", "benchmarks": benchmarks })
    };
    let base = dir.join("base.json");
    let head = dir.join("head.json");
    std::fs::write(&base, side(false, "only\u{1b}]0;x\u{7} @base").to_string()).expect("base");
    std::fs::write(&head, side(true, "only\n::error::head").to_string()).expect("head");
    vec![base.display().to_string(), head.display().to_string()]
}

/// `compare BASE HEAD --fail-on any ARGS` on the corpus, with `COLUMNS`.
fn compare(args: &[&str], columns: &str) -> Output {
    let dir = tempfile::tempdir().expect("temp");
    let files = hostile_results(dir.path());
    let mut all = vec!["compare", &files[0], &files[1], "--fail-on", "any"];
    all.extend_from_slice(args);
    let out = run_with_env(dir.path(), &all, &[("COLUMNS", Path::new(columns))]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "the gate fails: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8")
}

/// What a terminal or a CI log must never get from a name: a raw hidden character, a line that reads as a
/// workflow command, or `##[`.
fn assert_inert_lines(what: &str, text: &str) {
    for line in text.lines() {
        assert!(!line.chars().any(hidden), "{what}: {line:?}");
        assert!(!line.trim_start().starts_with("::"), "{what}: {line:?}");
        assert!(!line.contains("##["), "{what}: {line:?}");
    }
}

#[test]
fn the_table_shows_hostile_names_escaped_and_no_wider_than_the_terminal() {
    for columns in ["60", "80", "140"] {
        let out = compare(&[], columns);
        let table = text(&out.stdout);
        assert_inert_lines("table", &table);
        let limit: usize = columns.parse().unwrap();
        for line in table.lines() {
            assert!(
                line.width() <= limit,
                "{} > {columns}: {line:?}",
                line.width()
            );
        }
        // The screen-clearing name is shown, escaped.
        assert!(
            table.contains("\\e[2J\\e[H\\e]0;pwned title\\u{7}"),
            "{table}"
        );
    }
}

#[test]
fn standard_error_shows_hostile_names_on_one_line_each() {
    let out = compare(&["--format", "json"], "80");
    let stderr = text(&out.stderr);
    assert_inert_lines("stderr", &stderr);
    // The gate's line names the slower benchmarks, escaped and shortened to 60 columns each
    // (docs/verdicts.md §6): the first 14 columns (a quarter of the 59 beside the ellipsis), `…`, the last 45.
    assert!(
        stderr.contains(
            "Gate failed (--fail-on any, threshold 2%): evil\\n::error …=forged::Build is compromised\\n::add-mask::ok \
             time +100%"
        ),
        "{stderr}"
    );
    let long = "long-name-".repeat(6);
    assert!(
        stderr.contains(&format!(
            "{}…{} time",
            &long[..14],
            &long[long.len() - 45..]
        )),
        "{stderr}"
    );
}

#[test]
fn the_markdown_mentions_nobody_links_nothing_and_keeps_its_rows() {
    let out = compare(&["--format", "markdown"], "80");
    let markdown = text(&out.stdout);
    for line in markdown.lines() {
        // Hidden characters are shown escaped; the word joiner after `@` and in `://` is the rule's own.
        assert!(
            !line.chars().any(|c| hidden(c) && c != '\u{2060}'),
            "{line:?}"
        );
        assert!(!line.trim_start().starts_with("::"), "{line:?}");
    }
    let mention = markdown.match_indices('@').find(|(i, _)| {
        markdown[i + 1..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric())
    });
    assert!(
        mention.is_none(),
        "{:?}",
        mention.map(|(i, _)| &markdown[i..])
    );
    // The only links are the glossary's own, each to a page of this repository's docs.
    let own = "](https://github.com/cargo-speedup/cargo-speedup/blob/main/docs/";
    assert!(markdown.contains(own), "the glossary links its terms");
    let others = markdown.replace(own, "");
    for link in ["http://", "https://", "www.evil", "<script", "<img"] {
        assert!(!others.contains(link), "{link}");
    }
    // A backslash escapes what follows it only when an odd number of them stands before it.
    let escaped = |before: &str| before.chars().rev().take_while(|c| *c == '\\').count() % 2 == 1;
    for (i, _) in markdown.match_indices("](") {
        assert!(
            escaped(&markdown[..i]) || markdown[i..].starts_with(own),
            "a link: {}",
            &markdown[i.saturating_sub(40)..i + 2]
        );
    }
    // Every row of the table has as many cell separators (unescaped pipes) as its header.
    let pipes = |line: &str| {
        line.match_indices('|')
            .filter(|(i, _)| !escaped(&line[..*i]))
            .count()
    };
    let rows: Vec<&str> = markdown.lines().filter(|l| l.starts_with('|')).collect();
    assert_eq!(rows.len(), hostile_names().len() + 2, "{markdown}");
    for row in &rows {
        assert_eq!(pipes(row), pipes(rows[0]), "{row}");
    }
}

#[test]
fn the_html_shows_hostile_names_as_text() {
    let out = compare(&["--format", "html"], "80");
    let page = text(&out.stdout);
    assert!(!page.chars().any(|c| hidden(c) && c != '\n'));
    assert!(!page.contains("<script"));
    // The name is there, as text.
    assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(page.contains("safe\\u{202e}exe.txt"));
}

#[test]
fn no_csv_name_cell_begins_a_formula() {
    let out = compare(&["--format", "csv"], "80");
    let csv = text(&out.stdout);
    // One physical line per record (hidden characters, line breaks included, are shown escaped, so that a
    // CSV printed into a CI log starts no workflow command), and no first cell begins a formula.
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), hostile_names().len() + 1, "{csv}");
    for line in &lines[1..] {
        assert!(!line.chars().any(hidden), "{line:?}");
        assert!(
            !line.trim_start().starts_with("::") && !line.contains("##["),
            "{line:?}"
        );
        let first = line.trim_start_matches('"');
        assert!(
            !first.starts_with(['=', '+', '-', '@', '\t', '\r']),
            "{line:?}"
        );
    }
    assert!(
        csv.contains("\nevil\\n::error title=forged::Build is compromised\\n::add-mask::ok,ns,")
    );
    assert!(csv.contains("\n\"'=HYPERLINK(\"\"http://evil.example\"\",\"\"x\"\")\",ns,"));
    assert!(csv.contains("\n'+1+cmd|' /C calc'!A0,ns,"));
    assert!(csv.contains("\n'-2+3,ns,"));
}

#[test]
fn the_json_keeps_names_exact() {
    let out = compare(&["--format", "json"], "80");
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let names: Vec<&str> = report["benchmarks"]
        .as_array()
        .expect("benchmarks")
        .iter()
        .map(|b| b["name"].as_str().expect("a name"))
        .collect();
    let mut expected = hostile_names();
    expected.sort();
    let mut names: Vec<String> = names.into_iter().map(String::from).collect();
    names.sort();
    assert_eq!(names, expected);
}
