//! `cargo speedup record`: measure the working tree alone and write its results as a record file (the
//! format of `sources::record`), for `compare` or `merge` later; `--measure instructions` records exact
//! counts, one run, as `cargo speedup BASE..HEAD --measure instructions` measures each side.

use anyhow::{Context as _, Result};

use super::{Outcome, Output, check_outputs, manifest, write_to};
use crate::cli::RecordArgs;
use crate::measure;
use crate::plan::{measuring, run_options};

/// `cargo speedup record`, measuring what `--measure` asks.
pub(super) fn record(args: &RecordArgs) -> Result<Outcome> {
    if let Some(path) = &args.output {
        let output = Output {
            flag: "-o",
            path,
            example: "results.json",
        };
        check_outputs(&[output], &[manifest(&args.run)])?;
    }
    let run = measuring(
        run_options(&args.run, args.quiet, None)?,
        args.measure.as_deref(),
        &args.run,
    )?;
    let results = measure::measure_working_tree(&run)?;
    let mut bytes = Vec::new();
    crate::sources::record::write(&results, &mut bytes).context("writing the results")?;
    write_to(args.output.as_deref(), &bytes)?;
    Ok(Outcome::Passed)
}
