//! Which benchmarks the next blocks run: all that the user's filter selects, or, after a look, only the
//! ones still open for each participant, through criterion's filter narrowed to their exact names per
//! bench target.
//!
//! Must not: decide which are open (the analysis does, between looks), or start a run.

use crate::measure::harness::Harness;

/// Which benchmarks the next blocks run: all that the user's filter selects, or only the ones still open
/// for each participant, through criterion's filter narrowed to their exact names per bench target (a
/// target with none open does not run).
#[derive(Debug, Clone, Copy)]
pub(crate) struct RunSelection<'a> {
    /// `None`: every benchmark; else the open ones of each participant, in the participants' order.
    pub open: Option<&'a [Vec<String>]>,
    /// The benchmarks of each bench target, as criterion lists them.
    pub by_target: &'a [(String, Vec<String>)],
    /// Under `--partition`: a target not in `by_target` has nothing of the part and does not run.
    pub partitioned: bool,
}

impl RunSelection<'_> {
    /// criterion's filter for `participant`'s `target`: `Some(None)` keeps the user's, `Some(Some(regex))`
    /// narrows it to the open benchmarks, `None` when the target has nothing to run.
    pub(crate) fn filter(
        &self,
        participant: usize,
        target: &str,
        harness: Harness,
    ) -> Option<Option<String>> {
        let Some(all) = self.open else {
            return Some(None);
        };
        let open = all.get(participant).map_or(&[][..], Vec::as_slice);
        let listed: Vec<&String> = self
            .by_target
            .iter()
            .filter(|(t, _)| t == target)
            .flat_map(|(_, names)| names)
            .collect();
        // A target whose benchmarks could not be listed (a harness that does not answer criterion's
        // `--list`) cannot be narrowed: it keeps running under the user's filter.
        if listed.is_empty() {
            return (!self.partitioned).then_some(None);
        }
        let names: Vec<&String> = listed
            .into_iter()
            .filter(|n| open.iter().any(|o| harness.listed_name(o) == **n))
            .collect();
        (!names.is_empty()).then(|| Some(harness.exact(&names)))
    }
}

#[cfg(test)]
mod tests;
