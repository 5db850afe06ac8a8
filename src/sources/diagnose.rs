//! Why a file is not results this tool reads, said plainly: empty, cut short at a line and column, a number
//! out of range, `NaN` in place of a time, a JSON array where every JSON format has an object; with the
//! format the file came closest to. Must not: accept anything (it only words the error of a file that
//! [`super::detect`] or a reader refused).

use serde_json::error::Category;

use super::top_level::{MAX_NESTING, TopLevel, is_too_deep};
use super::{FILE_FORMATS, InputFormat, SourceError};

/// The error for `text` (read from `origin`), which no format's detection accepted.
pub(crate) fn unreadable(text: &str, origin: &str) -> SourceError {
    let malformed = |problem: String, hint: &str| SourceError::Malformed {
        path: origin.into(),
        problem,
        hint: hint.into(),
    };
    // Output of a known tool that is not results this tool reads: named, with what to pass instead.
    if text.trim().is_empty() {
        return malformed(
            "empty".into(),
            "write the results into it again, e.g. `cargo speedup record -o FILE`",
        );
    }
    let trimmed = text.trim_start();
    if !trimmed.starts_with(['{', '[']) {
        return SourceError::Unrecognised {
            path: origin.into(),
            tried: FILE_FORMATS.to_vec(),
        };
    }
    let closest = closest_format(text);
    let top = TopLevel::parse(text);
    if let Some((problem, hint)) = top
        .as_ref()
        .ok()
        .and_then(|t| super::foreign::recognise(text, t))
    {
        return malformed(problem, &hint);
    }
    match top {
        Err(error) => malformed(
            format!(
                "{} (read as {})",
                json_problem(text, &error),
                closest.name()
            ),
            match error.classify() {
                _ if is_too_deep(&error) => {
                    "give the file a benchmark harness or `cargo speedup record` wrote"
                }
                Category::Eof => {
                    "the file is cut short: write it again (a copy taken while it was being written ends early)"
                }
                _ => "fix the JSON at that place; times are finite numbers in the file's unit",
            },
        ),
        Ok(TopLevel::Array) => malformed(
            format!(
                "a JSON array at the top level, where {} is an object: {{\"benchmarks\": [...]}}",
                closest.name()
            ),
            "wrap the list: {\"unit\": \"ns\", \"benchmarks\": [ ... ]}",
        ),
        Ok(_) => SourceError::Unrecognised {
            path: origin.into(),
            tried: FILE_FORMATS.to_vec(),
        },
    }
}

/// What is wrong in JSON text that `error` refused, in a reader's words: where it ends early, where a number
/// is out of range, where it nests too deep, `NaN is not a time`, or serde_json's own message.
pub(crate) fn json_problem(text: &str, error: &serde_json::Error) -> String {
    let at = format!("at line {} column {}", error.line(), error.column());
    if error.classify() == Category::Eof {
        return format!("ends early {at}");
    }
    let message = error.to_string();
    if message.starts_with("number out of range") {
        return format!("a number out of range {at}");
    }
    if is_too_deep(error) {
        return format!(
            "nests arrays and objects {MAX_NESTING} levels deep {at}, which no results file does"
        );
    }
    if let Some(word) = non_finite_at(text, error.line(), error.column()) {
        return format!(
            "{word} is not a time ({at}): every time is a finite number greater than zero"
        );
    }
    message
}

/// `NaN`, `Infinity` or `inf` (any case, any sign) starting at the 1-based `line` and `column`.
fn non_finite_at(text: &str, line: usize, column: usize) -> Option<&str> {
    let rest = text
        .lines()
        .nth(line.checked_sub(1)?)?
        .get(column.checked_sub(1)?..)?;
    let end = rest
        .char_indices()
        .find(|&(i, c)| !(c.is_ascii_alphabetic() || (i == 0 && c == '-')))
        .map_or(rest.len(), |(i, _)| i);
    let word = &rest[..end];
    let bare = word.trim_start_matches('-').to_ascii_lowercase();
    matches!(bare.as_str(), "nan" | "infinity" | "inf").then_some(word)
}

/// The JSON format whose telling keys `text` mentions, in [`super::detect`]'s order; raw timing JSON when
/// none.
fn closest_format(text: &str) -> InputFormat {
    let mentions = |key: &str| text.contains(&format!("\"{key}\""));
    if mentions("schema") {
        InputFormat::Record
    } else if mentions("reason") {
        InputFormat::CargoCriterion
    } else if mentions("results") {
        InputFormat::Hyperfine
    } else if mentions("context") {
        InputFormat::GoogleBenchmark
    } else {
        InputFormat::RawJson
    }
}

#[cfg(test)]
mod tests {
    use super::unreadable;

    fn message(text: &str) -> String {
        unreadable(text, "x.json").to_string()
    }

    #[test]
    fn empty_truncated_and_out_of_range_files_say_so_and_where() {
        assert!(
            message("").starts_with("x.json: empty\n"),
            "{}",
            message("")
        );
        assert!(message(" \n").starts_with("x.json: empty\n"));
        let cut = message("{\"benchmarks\":[{\"name\":\"a\",\n\"samples\":[1,2");
        assert!(
            cut.starts_with("x.json: ends early at line 2 column 14 (read as raw timing JSON)"),
            "{cut}"
        );
        let big = message("{\"benchmarks\":[{\"name\":\"a\",\"samples\":[1e400]}]}");
        assert!(
            big.contains("a number out of range at line 1 column 43 (read as raw timing JSON)"),
            "{big}"
        );
        let hyperfine = message("{\"results\":[{\"command\":\"a\",\"times\":[1,");
        assert!(
            hyperfine.contains("(read as hyperfine --export-json)"),
            "{hyperfine}"
        );
    }

    #[test]
    fn a_top_level_array_names_the_object_expected() {
        let text = message("[{\"name\":\"a\",\"samples\":[1]}]");
        assert!(
            text.starts_with(
                "x.json: a JSON array at the top level, where raw timing JSON is an object"
            ),
            "{text}"
        );
        assert!(text.contains("hint: wrap the list"), "{text}");
    }

    #[test]
    fn text_that_is_not_json_lists_what_was_tried() {
        assert!(message("hello").contains("not a results file this tool reads; tried:"));
    }
}
