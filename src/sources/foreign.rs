//! JSON this tool does not read as one side, recognised for what it is, so that the message names it and
//! says what to pass instead (`docs/formats.md` §8): this tool's own `--format gab` and `--format bmf`
//! output (one summary value per benchmark, HEAD's median), github-action-benchmark's custom JSON list,
//! JMH's and BenchmarkDotNet's JSON, and criterion's own files given one by one. Must not: read any of them
//! as results.

use serde::Deserialize;

use super::top_level::{Member, TopLevel};

/// The hint for a file of summaries: one value per benchmark, made from runs that are elsewhere.
pub(crate) const SUMMARIES: &str = "this holds summaries; compare the results it was made from";

/// What the hint says to pass instead: raw timing JSON.
const RAW: &str = "{\"unit\": \"ns\", \"benchmarks\": [{\"name\": \"NAME\", \"samples\": [...]}]}";

/// One element of a github-action-benchmark custom JSON list (`customSmallerIsBetter`), as far as it tells
/// the format; other fields are ignored without being kept.
#[derive(Deserialize)]
struct GabEntry {
    #[allow(dead_code)]
    name: String,
    #[allow(dead_code)]
    unit: String,
    #[allow(dead_code)]
    value: f64,
    extra: Option<String>,
}

/// One element of JMH's `-rf json` list.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct JmhEntry {
    #[allow(dead_code)]
    jmh_version: String,
    #[allow(dead_code)]
    benchmark: String,
}

/// What `text` is, when it is a JSON output this tool recognises but does not read: the problem and the
/// hint of the message.
pub(crate) fn recognise(text: &str, top: &TopLevel) -> Option<(String, String)> {
    match top {
        TopLevel::Array => array(text),
        TopLevel::Object(members) => object(top, members),
        TopLevel::Other => None,
    }
}

fn array(text: &str) -> Option<(String, String)> {
    if let Ok(entries) = serde_json::from_str::<Vec<GabEntry>>(text) {
        if entries.is_empty() {
            return None;
        }
        let ours = entries
            .iter()
            .all(|e| e.extra.as_deref().is_some_and(|x| x.starts_with("BASE ")));
        return Some(if ours {
            (
                "this tool's `--format gab` output (github-action-benchmark's JSON list): one summary value \
                 per benchmark, HEAD's median, not the runs a comparison tests"
                    .into(),
                format!(
                    "{SUMMARIES} (the BASE and HEAD given to the `compare` that wrote it, or the files \
                     `cargo speedup record` wrote)"
                ),
            )
        } else {
            (
                "github-action-benchmark's custom JSON list (`customSmallerIsBetter`): one summary value \
                 per benchmark, not the runs a comparison tests"
                    .into(),
                format!(
                    "{SUMMARIES}, or give each benchmark's values as raw timing JSON: {RAW}"
                ),
            )
        });
    }
    if serde_json::from_str::<Vec<JmhEntry>>(text).is_ok_and(|e| !e.is_empty()) {
        return Some((
            "JMH's JSON (`-rf json`), which this tool does not read".into(),
            format!("give each benchmark's times (not throughputs) as raw timing JSON: {RAW}"),
        ));
    }
    None
}

fn object(
    top: &TopLevel,
    members: &std::collections::BTreeMap<String, Member>,
) -> Option<(String, String)> {
    let criterion_dir = "give the directory that holds criterion's files (`target/criterion`, or one \
                         benchmark's baseline directory such as `target/criterion/NAME/new`), or a \
                         baseline name";
    if members.get("mean") == Some(&Member::Object)
        && members.get("median") == Some(&Member::Object)
    {
        return Some((
            "criterion's `estimates.json`: statistics of one benchmark, not its samples".into(),
            criterion_dir.into(),
        ));
    }
    if top.is_array("iters") && top.is_array("times") {
        return Some((
            "criterion's `sample.json` of one benchmark, whose name is in the `benchmark.json` beside it"
                .into(),
            criterion_dir.into(),
        ));
    }
    if top.string("full_id").is_some() && top.string("directory_name").is_some() {
        return Some((
            "criterion's `benchmark.json`: one benchmark's name, without its samples".into(),
            criterion_dir.into(),
        ));
    }
    if top.has("HostEnvironmentInfo") && top.is_array("Benchmarks") {
        return Some((
            "BenchmarkDotNet's JSON export, which this tool does not read".into(),
            format!("give each benchmark's times as raw timing JSON: {RAW}"),
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(text: &str) -> Option<String> {
        recognise(text, &TopLevel::parse(text).unwrap()).map(|(p, _)| p)
    }

    #[test]
    fn each_recognised_output_is_named() {
        for (text, expected) in [
            (
                r#"[{"name":"a","unit":"ns","value":5.0,"extra":"BASE 5 ns, HEAD 5 ns (medians of 3 and 3 values)\nspeedup 1.00x"}]"#,
                "this tool's `--format gab` output",
            ),
            (
                r#"[{"name":"a","unit":"ns","value":5.0,"range":"3"}]"#,
                "github-action-benchmark's custom JSON list",
            ),
            (
                r#"[{"jmhVersion":"1.37","benchmark":"a.B.c","mode":"avgt"}]"#,
                "JMH's JSON",
            ),
            (
                r#"{"mean":{"point_estimate":1},"median":{"point_estimate":1},"std_dev":{}}"#,
                "criterion's `estimates.json`",
            ),
            (
                r#"{"sampling_mode":"Linear","iters":[1],"times":[2]}"#,
                "criterion's `sample.json`",
            ),
            (
                r#"{"group_id":"g","full_id":"g/f","directory_name":"g/f","title":"g/f"}"#,
                "criterion's `benchmark.json`",
            ),
            (
                r#"{"Title":"t","HostEnvironmentInfo":{},"Benchmarks":[]}"#,
                "BenchmarkDotNet's JSON export",
            ),
        ] {
            let found = problem(text).unwrap_or_default();
            assert!(found.starts_with(expected), "{text}: {found}");
        }
        assert_eq!(problem(r#"[{"name":"a","samples":[1]}]"#), None);
        assert_eq!(problem(r#"{"x":1}"#), None);
    }
}
