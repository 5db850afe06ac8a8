//! The benchmarks of a built bench executable, as its harness lists them (`--list`): what the prepare
//! stage needs to take a part of them (`--partition`) or set identical ones aside, and what the looks
//! narrow their runs to.
//!
//! Must not: measure anything, or write anything (a listing run has no `CRITERION_HOME`).

use std::process::Command;

use super::build::BenchBinary;
use crate::measure::{MeasureError, process};

/// The benchmarks of `binary` that `filter` selects, as its harness lists them (one `NAME: benchmark` or
/// `NAME: bench` line each); nothing is measured or written. `label` names the revision in errors.
pub(crate) fn list(
    binary: &BenchBinary,
    filter: Option<&str>,
    label: &str,
) -> Result<Vec<String>, MeasureError> {
    let (args, env) = binary.harness.list_args(filter);
    let mut command = Command::new(&binary.layouts[0]);
    command
        .args(args)
        .current_dir(&binary.package_dir)
        .env("CARGO_MANIFEST_DIR", &binary.package_dir);
    command.envs(env);
    let out = process::capture(&mut command)?;
    if !out.status.success() {
        return Err(MeasureError::BenchmarkFailed {
            revision: label.to_string(),
            target: binary.target.clone(),
            command: process::describe(&command),
            status: out.status.to_string(),
            stderr: out.stderr_text(),
        });
    }
    Ok(listed(&String::from_utf8_lossy(&out.stdout)))
}

/// The names in criterion's `--list` output: `NAME: benchmark` (criterion 0.5 and later) or `NAME: bench`
/// (0.3, 0.4).
fn listed(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            line.strip_suffix(": benchmark")
                .or_else(|| line.strip_suffix(": bench"))
        })
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn criterion_list_lines_give_the_names() {
        // criterion 0.5-0.8 `--list`: one `ID: benchmark` line per benchmark, ids with spaces and slashes.
        let text = "group/a: benchmark\nsame: benchmark\nwith space/3: benchmark\n\nwarning: x\n";
        assert_eq!(listed(text), ["group/a", "same", "with space/3"]);
        // criterion 0.4 (base64 0.22's benches): `: bench`.
        let old = "encode_small_input/encode/3: bench\nencode_small_input/encode/3072: bench\n";
        assert_eq!(
            listed(old),
            [
                "encode_small_input/encode/3",
                "encode_small_input/encode/3072"
            ]
        );
    }
}
