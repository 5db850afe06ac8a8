//! The Action's scripts on the hostile corpus (`tests/hostile/names.json`): what a pull request's benchmark
//! names can make of the log, the job summary and the comment. The action runs as `action.rs` runs it, with
//! `cargo` replaced by a script that compares two results files holding the corpus (no build: the names
//! are the point), and GitHub's API by a stub `gh` that records its calls and lists the pull request's
//! comments, one of them a marker comment planted by another user.
//!
//! Asserted: no line of the log reads as a workflow command other than the scripts' own annotations (one
//! per slower benchmark, one per gate reason), no `##[` and no raw control or bidi character in the log,
//! no mention in the summary or the comment, the planted comment left alone, and the comment under
//! GitHub's limit with a link to the full report.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::action::{Home, action_dir, contexts, run};
use crate::support::{commit, git, hidden, repository, write};

/// The corpus every sink test reads.
fn hostile_names() -> Vec<String> {
    let path = action_dir().join("tests/hostile/names.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("the corpus")).expect("a JSON array")
}

/// What GitHub's runner decodes in a command's data (`ActionCommand.UnescapeData`, in its order).
fn unescape_data(data: &str) -> String {
    data.replace("%0D", "\r")
        .replace("%0A", "\n")
        .replace("%25", "%")
}

/// `annotation(kind; title; message)` of `action/workflow-commands.jq`, run by jq as the scripts run it.
fn annotation(kind: &str, title: &str, message: &str) -> String {
    jq(
        &["--arg", "kind", kind, "--arg", "title", title],
        r#"include "workflow-commands"; annotation($kind; $title; .)"#,
        message,
    )
}

/// What jq prints for `program` of the action's modules (with `args`) on `text`, given as a JSON string on
/// standard input, as the scripts read names from the JSON reports (an argument could not hold a NUL).
fn jq(args: &[&str], program: &str, text: &str) -> String {
    let mut child = Command::new("jq")
        .args(["-r", "-L"])
        .arg(action_dir().join("action"))
        .args(args)
        .arg(program)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("jq runs");
    let input = serde_json::to_string(text).expect("JSON");
    std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), input.as_bytes())
        .expect("jq reads");
    let out = child.wait_with_output().expect("jq ends");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn annotations_encode_names_as_github_says_and_stay_one_line() {
    // GitHub's rule, by hand: `%` -> `%25`, CR -> `%0D`, LF -> `%0A`; in a property also `:` and `,`.
    assert_eq!(
        annotation("warning", "a:b,c%", "100% done"),
        "::warning title=a%3Ab%2Cc%25::100%25 done\n"
    );
    assert_eq!(
        annotation("error", "t", "%0A::error::x"),
        "::error title=t::%250A::error::x\n"
    );
    // Line breaks and escapes are shown as the terminal shows them, so nothing is left to encode but `%`.
    assert_eq!(
        annotation(
            "warning",
            "t",
            "evil\n::error title=forged::Build is compromised\r\u{1b}[2J\u{202e}"
        ),
        "::warning title=t::evil\\n::error title=forged::Build is compromised\\r\\e[2J\\u{202e}\n"
    );
    // The runner's older syntax, read anywhere in a line, is broken as the terminal rule breaks it.
    assert_eq!(
        annotation("warning", "t", "a ##[add-mask]b"),
        "::warning title=t::a ##\\u{5b}add-mask]b\n"
    );
    for name in hostile_names() {
        let line = annotation("warning", "cargo-speedup", &name);
        assert!(!line.contains("##["), "{line:?}");
        let line = line.strip_suffix('\n').expect("one line");
        assert!(!line.contains('\n'), "{name:?}: {line:?}");
        let data = line
            .strip_prefix("::warning title=cargo-speedup::")
            .unwrap_or_else(|| panic!("{name:?}: {line:?}"));
        let decoded = unescape_data(data);
        assert!(
            !decoded.chars().any(hidden),
            "{name:?} decodes to {decoded:?}"
        );
        // What the runner decodes is the name, shown: every visible character of the name is there (but
        // the `[` of `##[`, written `\u{5b}`).
        let kept: String = name.chars().filter(|c| !hidden(*c)).collect();
        let shown: String = decoded.chars().filter(|c| *c != '\\').collect();
        assert!(
            kept.chars()
                .filter(|c| !matches!(c, '\\' | '['))
                .all(|c| shown.contains(c)),
            "{name:?}: {decoded:?}"
        );
    }
}

/// `markdown_name` of `action/markdown.jq`, run by jq as `bisect.sh` runs it.
fn jq_markdown_name(text: &str) -> String {
    let line = jq(&[], r#"include "markdown"; markdown_name"#, text);
    line.strip_suffix('\n').expect("one line").to_string()
}

#[test]
fn the_actions_markdown_rule_writes_every_name_as_the_tools_markdown_report_does() {
    // The tool's Markdown report writes each name through inert::markdown_name as its row's first cell.
    let names = hostile_names();
    let dir = tempfile::tempdir().expect("dir");
    let (base, head) = (dir.path().join("base.json"), dir.path().join("head.json"));
    std::fs::write(&base, results(&names, 0, false).to_string()).expect("base");
    std::fs::write(&head, results(&names, 0, true).to_string()).expect("head");
    let out = crate::environment::tool()
        .args(["speedup", "compare"])
        .args([&base, &head])
        .args(["--format", "markdown", "--fail-on", "none"])
        .env("NO_COLOR", "1")
        .output()
        .expect("cargo-speedup runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = String::from_utf8(out.stdout).expect("UTF-8");
    for name in &names {
        let cell = format!("\n| {} | ", jq_markdown_name(name));
        assert!(
            report.contains(&cell),
            "{name:?} as {cell:?} is not a row of\n{report}"
        );
    }
    // And on the characters the corpus lacks: what the rule escapes, joins or leaves alone.
    assert_eq!(
        jq_markdown_name("a&b<c>d \\|*_`[]#~! @x http://y WWW.z www"),
        "a&amp;b&lt;c&gt;d \\\\\\|\\*\\_\\`\\[\\]\\#\\~\\! @\u{2060}x http:\u{2060}//y WWW\u{2060}.z www"
    );
}

/// A stub `gh` in `bin`: each call's arguments go to `calls/N` (NUL-separated); listing the comments of a
/// pull request prints `comments.json`.
fn stub_gh(bin: &Path, comments: &str) -> PathBuf {
    let calls = bin.join("calls");
    let _ = std::fs::remove_dir_all(&calls);
    std::fs::create_dir_all(&calls).expect("calls");
    std::fs::write(bin.join("comments.json"), comments).expect("comments");
    let script = format!(
        "#!/usr/bin/env bash\nn=$(ls '{calls}' | wc -l)\nprintf '%s\\0' \"$@\" > '{calls}/'$n\n\
         case \"$*\" in\n  *'/comments --paginate'*) cat '{comments}' ;;\nesac\n",
        calls = calls.display(),
        comments = bin.join("comments.json").display()
    );
    let gh = bin.join("gh");
    std::fs::write(&gh, script).expect("stub gh");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&gh, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    calls
}

/// The calls the stub `gh` received, in order, each as its arguments.
fn gh_calls(calls: &Path) -> Vec<Vec<String>> {
    let mut files: Vec<(usize, PathBuf)> = std::fs::read_dir(calls)
        .expect("calls")
        .map(|e| e.expect("entry").path())
        .map(|p| (p.file_name().unwrap().to_str().unwrap().parse().unwrap(), p))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|(_, p)| {
            let text = std::fs::read_to_string(p).expect("a call");
            text.split_terminator('\0').map(str::to_string).collect()
        })
        .collect()
}

/// The body a POST or PATCH call sent.
fn body(call: &[String]) -> &str {
    call.iter()
        .find_map(|a| a.strip_prefix("body="))
        .expect("a body")
}

/// A comment of the listing.
pub(crate) fn comment(id: u64, login: &str, body: &str) -> serde_json::Value {
    serde_json::json!({ "id": id, "user": { "login": login }, "body": body })
}

/// Runs `action/comment.sh` with the stub `gh` listing `comments`, and returns the calls it made.
pub(crate) fn run_comment(
    home: &Home,
    comments: &[serde_json::Value],
    markdown: &str,
    env: &[(&str, &str)],
) -> Vec<Vec<String>> {
    let bin = home.dir.path().join("bin");
    std::fs::create_dir_all(&bin).expect("bin");
    let calls = stub_gh(&bin, &serde_json::to_string(comments).expect("JSON"));
    let report = home.dir.path().join("report.md");
    std::fs::write(&report, markdown).expect("markdown");
    let out = crate::environment::command("bash")
        .arg(action_dir().join("action/comment.sh"))
        .env(
            "PATH",
            format!("{}:{}", bin.display(), std::env::var("PATH").unwrap()),
        )
        .env("SPEEDUP_MARKDOWN", &report)
        .env("SPEEDUP_REPOSITORY", "o/r")
        .env("SPEEDUP_PR", "3")
        .env("SPEEDUP_NOTABLE", "true")
        .env("SPEEDUP_RUN_ID", "77")
        .env("SPEEDUP_SERVER_URL", "https://github.example")
        .envs(env.iter().copied())
        .output()
        .expect("comment.sh runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    gh_calls(&calls)
}

pub(crate) const MARKER: &str = "<!-- cargo-speedup -->";

#[test]
fn the_comment_updated_is_the_tokens_own_never_a_planted_one() {
    let home = Home::new();
    let report = "| bench | verdict |\n";
    let planted = comment(666, "mallory", &format!("{MARKER}\nplanted"));
    let own = comment(7, "github-actions[bot]", &format!("{MARKER}\nold report"));
    let unmarked = comment(8, "github-actions[bot]", "another bot comment");

    // Only the planted marker comment: a new comment is posted, the planted one is not touched.
    let calls = run_comment(&home, &[planted.clone(), unmarked.clone()], report, &[]);
    let writes: Vec<&Vec<String>> = calls
        .iter()
        .filter(|c| c.contains(&"--method".to_string()))
        .collect();
    assert_eq!(writes.len(), 1, "{calls:?}");
    assert!(writes[0].contains(&"POST".to_string()), "{calls:?}");
    assert!(
        writes[0].contains(&"repos/o/r/issues/3/comments".to_string()),
        "{calls:?}"
    );
    assert!(
        !calls.iter().flatten().any(|a| a.contains("666")),
        "{calls:?}"
    );

    // The action's own comment, listed after the planted one, is the one updated.
    let calls = run_comment(&home, &[planted.clone(), own.clone()], report, &[]);
    let patch = calls
        .iter()
        .find(|c| c.contains(&"PATCH".to_string()))
        .unwrap_or_else(|| panic!("{calls:?}"));
    assert!(patch.contains(&"repos/o/r/issues/comments/7".to_string()));
    assert!(body(patch).starts_with(&format!("{MARKER}\n| bench | verdict |")));
    assert!(
        !calls.iter().flatten().any(|a| a.contains("666")),
        "{calls:?}"
    );

    // Another token's identity, given as `comment-author`: its comment is the one, the bot's is not.
    let other = comment(9, "release-bot", &format!("{MARKER}\nold"));
    let calls = run_comment(
        &home,
        &[own, other],
        report,
        &[("SPEEDUP_COMMENT_AUTHOR", "release-bot")],
    );
    assert!(
        calls
            .iter()
            .any(|c| c.contains(&"repos/o/r/issues/comments/9".to_string())),
        "{calls:?}"
    );
}

#[test]
fn a_long_report_is_capped_with_its_beginning_kept_and_a_link_to_the_rest() {
    let home = Home::new();
    // 1,500 rows and a warnings block: far over GitHub's 65,536 characters.
    let mut report = String::from(
        "**Suite: slower.** HPT: HEAD is slower than BASE.\n\n| Benchmark | Speedup |\n|:--|--:|\n",
    );
    for i in 0..1500 {
        report.push_str(&format!(
            "| group/parameterised-benchmark-number-{i:05} | 🔴 **0.50x [0.49, 0.51]** |\n"
        ));
    }
    report.push_str("\n<details><summary>2 warnings</summary>\n\n");
    for i in 0..2000 {
        report.push_str(&format!("{i}. a warning about @octocat and more\n"));
    }
    report.push_str("\n</details>\n");
    assert!(report.len() > 150_000, "{}", report.len());
    let calls = run_comment(&home, &[], &report, &[]);
    let post = calls
        .iter()
        .find(|c| c.contains(&"POST".to_string()))
        .unwrap_or_else(|| panic!("{calls:?}"));
    let text = body(post);
    assert!(
        text.chars().count() < 65_536,
        "{} characters",
        text.chars().count()
    );
    assert!(text.len() <= 60_400, "{} bytes", text.len());
    assert!(text.starts_with(&format!(
        "{MARKER}\n**Suite: slower.** HPT: HEAD is slower than BASE."
    )));
    assert!(text.contains("| group/parameterised-benchmark-number-00000 |"));
    assert!(text.trim_end().ends_with(
        "the rest is in [the job summary of this run](https://github.example/o/r/actions/runs/77)."
    ));
    // Whole rows only, and no `<details>` left open.
    for line in text.lines().filter(|l| l.starts_with("| group/")) {
        assert!(line.ends_with(" |"), "{line}");
    }
    assert_eq!(
        text.matches("<details>").count(),
        text.matches("</details>").count()
    );

    // A report under the cap is posted whole, without the link.
    let calls = run_comment(&home, &[], "short report\n", &[]);
    let post = calls
        .iter()
        .find(|c| c.contains(&"POST".to_string()))
        .unwrap_or_else(|| panic!("{calls:?}"));
    assert_eq!(body(post), format!("{MARKER}\nshort report"));
}

#[test]
fn the_bisections_section_is_kept_whole_after_a_cut_report() {
    let home = Home::new();
    let mut report = String::from("**Suite: slower.**\n\n<details><summary>rows</summary>\n\n");
    for i in 0..3000 {
        report.push_str(&format!("| group/benchmark-{i:05} | 0.50x |\n"));
    }
    report
        .push_str("</details>\n\n<!-- cargo-speedup: kept -->\n### Which commit?\n\nthe culprit\n");
    let calls = run_comment(&home, &[], &report, &[]);
    let post = calls
        .iter()
        .find(|c| c.contains(&"POST".to_string()))
        .unwrap_or_else(|| panic!("{calls:?}"));
    let text = body(post);
    assert!(text.len() <= 60_400, "{} bytes", text.len());
    assert!(text.contains("| group/benchmark-00000 |"));
    assert!(!text.contains("| group/benchmark-02999 |"));
    // The cut is said before the kept section, whose lines all follow, and no `<details>` is left open.
    assert!(
        text.ends_with(
            "the rest is in [the job summary of this run](https://github.example/o/r/actions/runs/77).\n\
             <!-- cargo-speedup: kept -->\n### Which commit?\n\nthe culprit"
        ),
        "{}",
        &text[text.len() - 400..]
    );
    assert_eq!(
        text.matches("<details>").count(),
        text.matches("</details>").count()
    );
}

#[test]
fn an_uploaded_report_mentions_nobody() {
    let home = Home::new();
    // A report as a pull request's workflow could upload for `post`: written by hand, not by the tool.
    let report = "cc @octocat and @org/team, mail@example.com; @ alone; already @\u{2060}safe\n";
    let calls = run_comment(&home, &[], report, &[]);
    let post = calls
        .iter()
        .find(|c| c.contains(&"POST".to_string()))
        .unwrap_or_else(|| panic!("{calls:?}"));
    assert_eq!(
        body(post),
        format!(
            "{MARKER}\ncc @\u{2060}octocat and @\u{2060}org/team, mail@\u{2060}example.com; @ alone; already @\u{2060}safe"
        )
    );
}

/// Raw timing JSON of `names` (10 runs each), HEAD twice as slow on every other name, plus `filler` unchanged
/// benchmarks that make the report longer than a comment holds.
fn results(names: &[String], filler: usize, slower: bool) -> serde_json::Value {
    let mut benchmarks: Vec<serde_json::Value> = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let factor = if slower && i % 2 == 0 { 2.0 } else { 1.0 };
            let samples: Vec<f64> = (0..10).map(|k| factor * (100.0 + 0.5 * k as f64)).collect();
            serde_json::json!({ "name": name, "samples": samples })
        })
        .collect();
    for i in 0..filler {
        let samples: Vec<f64> = (0..10).map(|k| 50.0 + 0.25 * k as f64).collect();
        benchmarks
            .push(serde_json::json!({ "name": format!("filler/{i:04}"), "samples": samples }));
    }
    serde_json::json!({ "unit": "ns", "benchmarks": benchmarks })
}

#[test]
fn hostile_names_through_the_action_leave_the_log_the_summary_and_the_comment_inert() {
    let names = hostile_names();
    let repo = repository();
    write(repo.path(), &[("README", "base")]);
    commit(repo.path(), "base");
    let base = git(repo.path(), &["rev-parse", "HEAD"]).trim().to_string();
    write(repo.path(), &[("README", "middle")]);
    commit(repo.path(), "middle");
    write(repo.path(), &[("README", "head")]);
    commit(repo.path(), "head");
    let head = git(repo.path(), &["rev-parse", "HEAD"]).trim().to_string();

    let inputs = home_with_hostile_cargo(&names);
    let home = &inputs.home;
    let bin = home.dir.path().join(".cache/cargo-speedup/bin");
    let planted = comment(666, "mallory", &format!("{MARKER}\nplanted"));
    let calls = stub_gh(&bin, &serde_json::to_string(&[planted]).unwrap());

    let temp = tempfile::tempdir().expect("runner temp");
    let mut contexts = contexts(
        home,
        temp.path(),
        &[
            ("base", &base),
            ("fail-on", "any"),
            ("comment", "true"),
            ("bisect", "true"),
        ],
        &[
            ("event_name", "pull_request"),
            ("sha", &head),
            ("event.pull_request.number", "5"),
            ("repository", "o/r"),
            ("run_id", "9"),
            ("server_url", "https://github.example"),
        ],
    );
    contexts.env.extend(inputs.env.clone());
    let job = run(repo.path(), contexts);
    assert_eq!(
        job.status, 1,
        "the gate fails on the slower names\n{}",
        job.log
    );

    // The log: only the scripts' own annotations, one per slower benchmark and one per gate reason.
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(&job.outputs["report"]).expect("the JSON report"),
    )
    .expect("JSON");
    let slower = json["benchmarks"]
        .as_array()
        .expect("benchmarks")
        .iter()
        .filter(|b| b["verdict"] == "slower")
        .count();
    let reasons = json["gate"]["reasons"].as_array().expect("reasons").len();
    assert!(
        slower >= names.len() / 2 - 1 && reasons == slower,
        "{slower} {reasons}"
    );
    let mut warnings = 0;
    let mut errors = 0;
    let mut notices = 0;
    for line in job.log.lines() {
        assert!(
            !line.chars().any(hidden),
            "a raw control character: {line:?}"
        );
        assert!(!line.contains("##["), "{line:?}");
        let command = line.trim_start();
        if !command.starts_with("::") {
            continue;
        }
        if command.starts_with("::warning title=cargo-speedup::") {
            warnings += 1;
        } else if command.starts_with("::error title=cargo-speedup::") {
            errors += 1;
        } else if command.starts_with("::notice title=cargo-speedup::bisect: commit 2 of 2, ") {
            notices += 1;
        } else {
            panic!("a workflow command the scripts did not write: {line:?}");
        }
    }
    assert_eq!(
        (warnings, errors, notices),
        (slower, reasons, 1),
        "{}",
        job.log
    );
    assert!(
        job.log.contains(
            "::warning title=cargo-speedup::evil\\n::error title=forged::Build is compromised\\n::add-mask::ok is slower"
        ),
        "{}",
        job.log
    );

    // The summary and the comment mention nobody; the planted comment is left alone; the comment fits.
    let mentions = |text: &str| {
        text.match_indices('@')
            .filter(|(i, _)| {
                text[i + 1..]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphanumeric())
            })
            .count()
    };
    assert_eq!(mentions(&job.summary), 0, "{}", job.summary);
    let calls = gh_calls(&calls);
    assert!(
        !calls.iter().flatten().any(|a| a.contains("666")),
        "{calls:?}"
    );
    let post = calls
        .iter()
        .find(|c| c.contains(&"POST".to_string()))
        .unwrap_or_else(|| panic!("a new comment: {calls:?}"));
    let text = body(post);
    assert_eq!(mentions(text), 0);
    // The bisection's sentence names the commit whose subject is the whole corpus: one line, no tag.
    for sink in [text, job.summary.as_str()] {
        let culprit: Vec<&str> = sink
            .lines()
            .filter(|l| l.starts_with("🔎 The slowdown came with `2222222222` “"))
            .collect();
        assert_eq!(culprit.len(), 1, "{sink}");
        assert!(culprit[0].ends_with("(commit 2 of 2 after the merge-base): speedup 0.5x against the merge-base, at confidence 0.95."), "{}", culprit[0]);
        // No tag, and no hidden character but the word joiners that keep `@` and links inert.
        assert!(
            !culprit[0].contains('<') && !culprit[0].chars().any(|c| hidden(c) && c != '\u{2060}'),
            "{}",
            culprit[0]
        );
        assert!(
            culprit[0].contains("evil\\\\n::error title=forged::Build is compromised"),
            "{}",
            culprit[0]
        );
    }
    assert!(text.chars().count() < 65_536, "{}", text.chars().count());
    assert!(text.contains("https://github.example/o/r/actions/runs/9"));
}

/// A home whose `cargo` compares the corpus's results files instead of building, and the variables
/// naming them.
struct HostileHome {
    home: Home,
    env: Vec<(String, String)>,
}

fn home_with_hostile_cargo(names: &[String]) -> HostileHome {
    let home = Home::new();
    let dir = home.dir.path();
    let (base, head) = (dir.join("base.json"), dir.join("head.json"));
    let mut base_results = results(names, 1500, false);
    let mut head_results = results(names, 1500, true);
    // A name on each side only: the summary lists them.
    base_results["benchmarks"].as_array_mut().unwrap().push(
        serde_json::json!({ "name": "only\u{1b}]0;x\u{7} @base", "samples": [1.0, 2.0, 3.0] }),
    );
    head_results["benchmarks"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({ "name": "only\n::error::head", "samples": [1.0, 2.0, 3.0] }));
    std::fs::write(&base, base_results.to_string()).expect("base");
    std::fs::write(&head, head_results.to_string()).expect("head");
    let bin = dir.join(".cache/cargo-speedup/bin");
    // A bisection whose path's subjects are the corpus, the commit named's the whole corpus at once.
    let bisection = dir.join("bisect.json");
    let subject = |s: &str, measured: bool| {
        serde_json::json!({ "sha": s.repeat(40 / s.len()), "subject": s, "measured": measured,
            "speedup": if measured { Some(0.5) } else { None }, "verdict": null, "bad_verdict": null,
            "identical": false, "step": null, "skipped": null })
    };
    let mut named = subject("2", true);
    named["subject"] = names.join(" / ").into();
    let report = serde_json::json!({
        "schema": "cargo-speedup-bisect/1", "direction": "slower", "threshold_pct": 0.0,
        "confidence": 0.95, "comparison_confidence": 0.99, "budgeted_comparisons": 3, "comparisons": 2,
        "outcome": "named", "named": 2, "interval": null, "reason": null, "summary": "",
        "path": [subject("0", false), subject("1", true), named],
    });
    std::fs::write(&bisection, report.to_string()).expect("bisection");
    // `cargo speedup REVISIONS OPTIONS...` becomes `cargo-speedup speedup compare BASE HEAD OPTIONS...`;
    // `cargo speedup bisect GOOD BAD OPTIONS...` writes that bisection as its JSON report.
    let cargo = bin.join("cargo");
    std::fs::write(
        &cargo,
        "#!/usr/bin/env bash\n[ \"$1\" = speedup ] || { echo \"unexpected cargo $*\" >&2; exit 3; }\n\
         if [ \"$2\" = bisect ]; then\n  while [ $# -gt 0 ]; do\n    case \"$1\" in\n\
         --json) cp \"$HOSTILE_BISECTION\" \"$2\" ;;\n      -o) echo '### cargo speedup bisect' > \"$2\" ;;\n\
         esac\n    shift\n  done\n  exit 0\nfi\n\
         shift 2\nexec cargo-speedup speedup compare \"$HOSTILE_BASE\" \"$HOSTILE_HEAD\" \"$@\"\n",
    )
    .expect("cargo");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&cargo, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let env = vec![
        ("HOSTILE_BASE".to_string(), base.display().to_string()),
        ("HOSTILE_HEAD".to_string(), head.display().to_string()),
        (
            "HOSTILE_BISECTION".to_string(),
            bisection.display().to_string(),
        ),
    ];
    HostileHome { home, env }
}
