//! The input of the `speeduptest` command, which reproduces SpeedUpTest.sh (paper 000's script): the script's
//! config CSV and the sample files it names (paper 000 §6.2.1 and §6.3.1; `docs/speedup-test.md` §8).
//!
//! The config has the header `Name,Sample1,Sample2,ConfLevel,Coef` and one row per benchmark. The first three
//! fields are mandatory; `ConfLevel` and `Coef` may be empty or `NA`, their commas staying. Strings may be
//! double-quoted (`""` inside quotes is a quote). Sample paths are relative to the current directory, and a
//! sample file holds one execution time per line (blank lines are skipped).
//!
//! Only an unreadable config or a wrong header is an error (the command exits 2). Everything else a user can
//! get wrong in one row (a missing or malformed sample file, a bad number, a `ConfLevel` outside (0, 1), a
//! negative `Coef`) becomes a note on that row naming the file and line, and the row is analysed without the
//! faulty value or not at all; never a panic. This module decides nothing statistical.

use crate::model::{BaseHead, NANOS_RANGE};
use std::path::{Path, PathBuf};

/// Why the config as a whole cannot be used.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ConfigError {
    // `error`, not `source`: as a source, the reason would be printed twice in the error's chain.
    /// The config file could not be read.
    #[error("cannot read the config file '{path}': {error}")]
    Unreadable {
        /// The config file.
        path: PathBuf,
        /// The operating system's error.
        error: std::io::Error,
    },
    /// The config file is larger than the size limit of one input (`docs/formats.md` §11).
    #[error(
        "the config file '{path}' is larger than {}, the size limit of one input\nhint: a config holds one line per benchmark: check that this is the config",
        super::limits::size_text(super::limits::DEFAULT_MAX_INPUT_SIZE)
    )]
    TooLarge {
        /// The config file.
        path: PathBuf,
    },
    /// The first line is not the expected header.
    #[error(
        "'{path}', line 1: the header must be Name,Sample1,Sample2,ConfLevel,Coef, found '{found}'"
    )]
    Header {
        /// The config file.
        path: PathBuf,
        /// The first line as found.
        found: String,
    },
}

/// One benchmark row of the config, with its samples read.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LoadedRow {
    /// The line of the config the row is on (1-based), for messages.
    pub line: usize,
    /// The row's `Name`: the benchmark.
    pub name: String,
    /// `[Sample1, Sample2]` (BASE, HEAD); `None` when a file is unreadable or malformed (see `notes`).
    pub samples: Option<BaseHead<Vec<f64>>>,
    /// A valid `ConfLevel` in (0, 1).
    pub conf_level: Option<f64>,
    /// A valid `Coef` (finite, >= 0).
    pub coef: Option<f64>,
    /// What went wrong in this row, in words for the user (the paper's `File 'x' is not readable`, ...).
    pub notes: Vec<String>,
}

/// The config file read.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Config {
    /// One per row that has five fields, in the file's order.
    pub entries: Vec<LoadedRow>,
    /// Problems with rows that could not be read as a benchmark at all (wrong number of fields, ...).
    pub notes: Vec<String>,
}

/// The note the paper gives when a sample file cannot be used (W0b).
pub(crate) const SAMPLES_UNAVAILABLE: &str = "Cannot process benchmark: samples unavailable.";

#[cfg(test)]
/// Reads the config at `path` and every sample file it names (relative to the current directory).
pub(crate) fn read(path: &Path) -> Result<Config, ConfigError> {
    Ok(read_rows(path)?.load())
}

/// The rows of a config, before any sample file is read.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Rows {
    /// One per row that has five fields, in the file's order.
    pub rows: Vec<WrittenRow>,
    /// Problems with rows that could not be read as a benchmark at all (wrong number of fields, ...).
    pub notes: Vec<String>,
}

/// Reads the config at `path` without reading the sample files it names.
pub(crate) fn read_rows(path: &Path) -> Result<Rows, ConfigError> {
    let text = read_limited(path).map_err(|error| match error.kind() {
        std::io::ErrorKind::FileTooLarge => ConfigError::TooLarge {
            path: path.to_path_buf(),
        },
        _ => ConfigError::Unreadable {
            path: path.to_path_buf(),
            error,
        },
    })?;
    let text = String::from_utf8(text).map_err(|e| ConfigError::Unreadable {
        path: path.to_path_buf(),
        error: std::io::Error::new(std::io::ErrorKind::InvalidData, e.utf8_error()),
    })?;
    let parsed = parse_config(&text).map_err(|found| ConfigError::Header {
        path: path.to_path_buf(),
        found,
    })?;
    let (rows, notes): (Vec<_>, Vec<_>) = parsed.into_iter().partition(Result::is_ok);
    Ok(Rows {
        rows: rows.into_iter().flatten().collect(),
        notes: notes.into_iter().filter_map(Result::err).collect(),
    })
}

impl Rows {
    /// The sample files the rows name, as written.
    pub(crate) fn sample_files(&self) -> impl Iterator<Item = &Path> {
        self.rows
            .iter()
            .flat_map(|row| [&row.sample1, &row.sample2])
            .map(Path::new)
    }

    /// Reads every sample file the rows name.
    pub(crate) fn load(self) -> Config {
        Config {
            entries: self
                .rows
                .into_iter()
                .map(|row| load_row(row, &read_limited))
                .collect(),
            notes: self.notes,
        }
    }
}

/// The bytes of a file of at most [`DEFAULT_MAX_INPUT_SIZE`](super::limits::DEFAULT_MAX_INPUT_SIZE); a
/// larger one is an error of kind `FileTooLarge`.
fn read_limited(path: &Path) -> std::io::Result<Vec<u8>> {
    use super::limits::{DEFAULT_MAX_INPUT_SIZE, LimitedReadError, read_file};
    read_file(path, DEFAULT_MAX_INPUT_SIZE).map_err(|e| match e {
        LimitedReadError::Io(error) => error,
        LimitedReadError::TooLarge { .. } => std::io::ErrorKind::FileTooLarge.into(),
    })
}

/// A config row as written, before its sample files are read.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct WrittenRow {
    /// The line of the config the row is on (1-based), for messages.
    pub line: usize,
    /// The `Name` field: the benchmark.
    pub name: String,
    /// The `Sample1` field: the path of BASE's sample file.
    pub sample1: String,
    /// The `Sample2` field: the path of HEAD's sample file.
    pub sample2: String,
    /// The `ConfLevel` field as written: empty or `NA` when absent, not yet checked.
    pub conf_level: String,
    /// The `Coef` field as written: empty or `NA` when absent, not yet checked.
    pub coef: String,
}

/// Splits the config text into rows. `Err` of the whole is the header found when it is not the expected one;
/// `Err` of a row is a note on a row that does not have exactly five fields.
pub(crate) fn parse_config(text: &str) -> Result<Vec<Result<WrittenRow, String>>, String> {
    let mut lines = text
        .trim_start_matches('\u{feff}')
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end_matches('\r')))
        .filter(|(_, l)| !l.trim().is_empty());
    let header = lines.next().map(|(_, l)| l).unwrap_or("");
    let expected = ["name", "sample1", "sample2", "conflevel", "coef"];
    let fields = split_fields(header);
    let matches = fields.len() == expected.len()
        && fields
            .iter()
            .zip(expected)
            .all(|(f, e)| f.to_ascii_lowercase() == e);
    if !matches {
        return Err(header.to_string());
    }
    Ok(lines.map(|(line, l)| parse_row(line, l)).collect())
}

fn parse_row(line: usize, text: &str) -> Result<WrittenRow, String> {
    let fields = split_fields(text);
    if fields.len() != 5 {
        return Err(format!(
            "Config line {line}: expected 5 fields (Name,Sample1,Sample2,ConfLevel,Coef), found {}; row ignored.",
            fields.len()
        ));
    }
    let [name, sample1, sample2, conf_level, coef] = <[String; 5]>::try_from(fields)
        .map_err(|_| format!("Config line {line}: unreadable row"))?;
    if sample1.is_empty() || sample2.is_empty() {
        return Err(format!(
            "Config line {line}: Sample1 and Sample2 are mandatory; row ignored."
        ));
    }
    let name = if name.is_empty() {
        format!("line {line}")
    } else {
        name
    };
    Ok(WrittenRow {
        line,
        name,
        sample1,
        sample2,
        conf_level,
        coef,
    })
}

/// Splits one CSV line on commas outside double quotes, unquoting and trimming each field.
fn split_fields(line: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(std::mem::take(&mut field).trim().to_string()),
            _ => field.push(c),
        }
    }
    fields.push(field.trim().to_string());
    fields
}

/// Reads both sample files of `row` with `read_file` and checks its optional fields.
pub(crate) fn load_row(
    row: WrittenRow,
    read_file: &dyn Fn(&Path) -> std::io::Result<Vec<u8>>,
) -> LoadedRow {
    let mut notes = Vec::new();
    let conf_level =
        optional_number(&row.conf_level, "ConfLevel", row.line, &mut notes).filter(|c| {
            accept(
                *c > 0.0 && *c < 1.0,
                "ConfLevel",
                "between 0 and 1 (exclusive); the default level is used",
                *c,
                row.line,
                &mut notes,
            )
        });
    let coef = optional_number(&row.coef, "Coef", row.line, &mut notes).filter(|c| {
        accept(
            *c >= 0.0,
            "Coef",
            "a weight >= 0; it is ignored",
            *c,
            row.line,
            &mut notes,
        )
    });
    let mut samples = Vec::new();
    for file in [&row.sample1, &row.sample2] {
        match read_file(Path::new(file)) {
            Err(e) if e.kind() == std::io::ErrorKind::FileTooLarge => notes.push(format!(
                "File '{file}' is larger than {}, the size limit of one input",
                super::limits::size_text(super::limits::DEFAULT_MAX_INPUT_SIZE)
            )),
            Err(_) => notes.push(format!("File '{file}' is not readable")),
            Ok(bytes) => match parse_sample(&String::from_utf8_lossy(&bytes), file) {
                Ok(values) => samples.push(values),
                Err(note) => notes.push(note),
            },
        }
    }
    let samples = <[Vec<f64>; 2]>::try_from(samples)
        .ok()
        .map(|[base, head]| BaseHead::new(base, head));
    if samples.is_none() {
        notes.push(SAMPLES_UNAVAILABLE.to_string());
    }
    LoadedRow {
        line: row.line,
        name: row.name,
        samples,
        conf_level,
        coef,
        notes,
    }
}

/// `None` for an empty or `NA` field; a note naming the row for a field that is not a finite number.
fn optional_number(field: &str, what: &str, line: usize, notes: &mut Vec<String>) -> Option<f64> {
    if field.is_empty() || field == "NA" {
        return None;
    }
    match field.parse::<f64>() {
        Ok(v) if v.is_finite() => Some(v),
        _ => {
            notes.push(format!(
                "Config line {line}: {what} '{field}' is not a number; it is ignored."
            ));
            None
        }
    }
}

fn accept(
    ok: bool,
    what: &str,
    expected: &str,
    value: f64,
    line: usize,
    notes: &mut Vec<String>,
) -> bool {
    if !ok {
        notes.push(format!(
            "Config line {line}: {what} {value} must be {expected}."
        ));
    }
    ok
}

/// Parses a sample file: one execution time per line, finite and > 0, at least 2 of them. `file` names the
/// file in the note returned on error.
pub(crate) fn parse_sample(text: &str, file: &str) -> Result<Vec<f64>, String> {
    let mut values = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let field = line.trim();
        if field.is_empty() {
            continue;
        }
        match field.parse::<f64>() {
            Ok(v) if v > 0.0 && !(NANOS_RANGE.0..=NANOS_RANGE.1).contains(&v) => {
                return Err(format!(
                    "File '{file}', line {}: '{field}' is outside the range of times this tool \
                     computes with (1e-100 to 1e100).",
                    i + 1
                ));
            }
            Ok(v) if v.is_finite() && v > 0.0 => values.push(v),
            Ok(_) => {
                return Err(format!(
                    "File '{file}', line {}: '{field}' is not a time > 0.",
                    i + 1
                ));
            }
            Err(_) => {
                return Err(format!(
                    "File '{file}', line {}: '{field}' is not a number.",
                    i + 1
                ));
            }
        }
    }
    if values.len() < 2 {
        return Err(format!(
            "File '{file}' holds {} value(s); at least 2 are needed.",
            values.len()
        ));
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAPER_CONFIG: &str = "Name,Sample1,Sample2,ConfLevel,Coef\n\
        \"First benchmark\",\"bench1.data.1\",\"bench1.data.2\",NA,\n\
        \"Second benchmark\",\"bench2.data.1\",\"bench2.data.2\",NA,NA\n\
        \"Third benchmark\",\"bench3.data.1\",\"bench3.data.2\",,NA\n\
        \"Fourth benchmark\",\"bench4.data.1\",\"bench4.data.2\",,\n";

    fn rows(text: &str) -> Vec<Result<WrittenRow, String>> {
        parse_config(text).expect("valid header")
    }

    fn entry(text: &str, files: &[(&str, &str)]) -> LoadedRow {
        let row = rows(text).remove(0).expect("valid row");
        let files: Vec<(String, String)> = files
            .iter()
            .map(|(p, c)| (p.to_string(), c.to_string()))
            .collect();
        load_row(row, &move |p: &Path| {
            files
                .iter()
                .find(|(name, _)| Path::new(name) == p)
                .map(|(_, c)| c.clone().into_bytes())
                .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::NotFound))
        })
    }

    #[test]
    fn the_papers_config_has_four_rows_with_na_and_empty_fields() {
        let rows: Vec<WrittenRow> = rows(PAPER_CONFIG).into_iter().map(|r| r.unwrap()).collect();
        assert_eq!(rows.len(), 4);
        assert_eq!(rows[0].name, "First benchmark");
        assert_eq!(rows[0].sample1, "bench1.data.1");
        assert_eq!(rows[3].sample2, "bench4.data.2");
        assert_eq!(
            (rows[0].conf_level.as_str(), rows[0].coef.as_str()),
            ("NA", "")
        );
        assert_eq!(
            (rows[2].conf_level.as_str(), rows[2].coef.as_str()),
            ("", "NA")
        );
        assert_eq!(rows[1].line, 3);
    }

    #[test]
    fn quoted_fields_keep_commas_and_doubled_quotes() {
        let text = "Name,Sample1,Sample2,ConfLevel,Coef\r\n\"a, \"\"b\"\"\",x.1, y.2 ,0.9,2\r\n";
        let row = rows(text).remove(0).unwrap();
        assert_eq!(row.name, "a, \"b\"");
        assert_eq!((row.sample1.as_str(), row.sample2.as_str()), ("x.1", "y.2"));
        assert_eq!((row.conf_level.as_str(), row.coef.as_str()), ("0.9", "2"));
    }

    #[test]
    fn a_byte_order_mark_before_the_header_is_ignored() {
        let text = "\u{feff}Name,Sample1,Sample2,ConfLevel,Coef\na,x,y,,\n";
        assert_eq!(rows(text).len(), 1);
    }

    #[test]
    fn a_wrong_header_is_an_error_naming_what_was_found() {
        assert_eq!(
            parse_config("Name,Base,Head\n").unwrap_err(),
            "Name,Base,Head"
        );
        assert!(parse_config("").is_err());
    }

    #[test]
    fn a_row_without_five_fields_is_a_note_naming_its_line() {
        let rows = rows("Name,Sample1,Sample2,ConfLevel,Coef\na,b,c\n");
        let note = rows[0].clone().unwrap_err();
        assert!(
            note.contains("line 2") && note.contains("found 3"),
            "{note}"
        );
    }

    #[test]
    fn samples_are_read_one_value_per_line() {
        let e = entry(
            "Name,Sample1,Sample2,ConfLevel,Coef\nb,x,y,0.9,2\n",
            &[("x", "2.02\n2.25\n\n"), ("y", "1.02\r\n2.05\r\n")],
        );
        assert_eq!(
            e.samples,
            Some(BaseHead::new(vec![2.02, 2.25], vec![1.02, 2.05]))
        );
        assert_eq!((e.conf_level, e.coef), (Some(0.9), Some(2.0)));
        assert!(e.notes.is_empty());
    }

    #[test]
    fn an_unreadable_file_gives_the_papers_two_warnings() {
        let e = entry(
            "Name,Sample1,Sample2,ConfLevel,Coef\nb,x,missing,,\n",
            &[("x", "1\n2\n")],
        );
        assert_eq!(e.samples, None);
        assert_eq!(
            e.notes,
            vec![
                "File 'missing' is not readable".to_string(),
                SAMPLES_UNAVAILABLE.to_string()
            ]
        );
    }

    #[test]
    fn bad_values_are_named_by_file_and_line() {
        assert_eq!(
            parse_sample("1.5\nabc\n", "f").unwrap_err(),
            "File 'f', line 2: 'abc' is not a number."
        );
        assert_eq!(
            parse_sample("1.5\n\n0\n", "f").unwrap_err(),
            "File 'f', line 3: '0' is not a time > 0."
        );
        assert!(parse_sample("1\n-2\n", "f").is_err());
        assert!(parse_sample("1\ninf\n", "f").is_err());
        assert_eq!(
            parse_sample("1.5\n", "f").unwrap_err(),
            "File 'f' holds 1 value(s); at least 2 are needed."
        );
    }

    #[test]
    fn out_of_range_conf_level_and_negative_coef_are_noted_and_dropped() {
        let e = entry(
            "Name,Sample1,Sample2,ConfLevel,Coef\nb,x,x,1.5,-1\n",
            &[("x", "1\n2\n")],
        );
        assert_eq!((e.conf_level, e.coef), (None, None));
        assert_eq!(e.notes.len(), 2);
        assert!(e.notes[0].contains("line 2") && e.notes[0].contains("ConfLevel 1.5"));
        assert!(e.notes[1].contains("Coef -1"));
        let e = entry(
            "Name,Sample1,Sample2,ConfLevel,Coef\nb,x,x,high,\n",
            &[("x", "1\n2\n")],
        );
        assert_eq!(e.conf_level, None);
        assert!(e.notes[0].contains("'high' is not a number"));
    }

    #[test]
    fn an_unreadable_config_is_an_error_naming_it() {
        let err = read(Path::new("/nonexistent/bench.cfg")).unwrap_err();
        assert!(err.to_string().contains("/nonexistent/bench.cfg"));
    }
}
