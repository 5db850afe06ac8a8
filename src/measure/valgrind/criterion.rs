//! criterion 0.4 to 0.8 under callgrind (`docs/instruction-counts.md` §2, §4): which `Bencher` method a
//! benchmark's dumps were written after, read from callgrind's header line `desc: Trigger:
//! --dump-after=FUNCTION` (the function matched, not the pattern given), and so whether its count holds
//! work that criterion does not time.
//!
//! A dump after each return from `Bencher::iter*` holds the whole call: for `iter_batched` and
//! `iter_batched_ref` (and `iter_with_setup` and `iter_with_large_drop`, which call `iter_batched`) the
//! setup run once per iteration, and the inputs and outputs dropped outside the timed section, with the
//! routine. The difference of two calls' costs cancels the harness's fixed work, not that per iteration:
//! such a benchmark's count includes its setup, and the report says so.
//!
//! Must not: read files or start anything (the runner hands the text in).

/// The `Bencher` methods a dump follows each return from: those that run the routine's iterations
/// (`#[inline(never)]` in criterion 0.4 to 0.8).
const METHODS: [&str; 4] = ["iter", "iter_custom", "iter_batched", "iter_batched_ref"];

/// callgrind's options that dump after each return from a `Bencher` method of [`METHODS`], one option per
/// method by its exact name: a pattern (`Bencher<M>::iter*`) would also dump after `iter_with_setup` and
/// `iter_with_large_drop`, which call `iter_batched` and are functions of their own in an unoptimised build
/// (each call of such a benchmark then gave two dumps, its count not exact).
pub(super) fn dump_options() -> Vec<String> {
    METHODS
        .iter()
        .map(|m| format!("--dump-after=criterion::bencher::Bencher<M>::{m}"))
        .collect()
}

/// The `Bencher` method whose return triggered a dump, from the dump's text: `iter`, `iter_batched`,
/// `iter_batched_ref`, `iter_custom`; `None` when the header names no `Bencher` method (the program's end,
/// or not a criterion dump).
pub(super) fn boundary(dump: &str) -> Option<&str> {
    let trigger = dump
        .lines()
        .take_while(|line| !line.starts_with("fl=") && !line.starts_with("fn="))
        .find_map(|line| line.strip_prefix("desc: Trigger: --dump-after="))?;
    let (path, method) = trigger.trim().rsplit_once("::")?;
    let bencher = path.rsplit("::").next()?;
    (bencher == "Bencher" || bencher.starts_with("Bencher<")).then_some(method)
}

/// Whether a benchmark whose dumps follow `method` counts its setup with its routine: `iter_batched` and
/// `iter_batched_ref` run the setup (and drop each input or output) inside the dumped call.
pub(super) fn counts_setup(method: &str) -> bool {
    method.starts_with("iter_batched")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The header of a dump Valgrind 3.19 wrote here after `Bencher::iter_batched_ref` (criterion 0.8.2,
    /// `--dump-after='criterion::bencher::Bencher<M>::iter*'`), cut after its first cost lines.
    const BATCHED_REF: &str = "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\npid: 16178\n\
        cmd:  target/release/deps/work-e2443057e9a0df52 --bench --profile-time 1 ^batches$\npart: 3\n\n\n\
        desc: I1 cache: \ndesc: D1 cache: \ndesc: LL cache: \n\n\
        desc: Timerange: Basic block 184338 - 224867\n\
        desc: Trigger: --dump-after=criterion::bencher::Bencher<M>::iter_batched_ref\n\n\
        positions: line\nevents: Ir\nsummary: 242343\n\nfl=(1) ???\nfn=(1) 0x0000000000021ab0\n0 3\n";

    #[test]
    fn the_trigger_names_the_bencher_method_and_batched_ones_count_their_setup() {
        assert_eq!(boundary(BATCHED_REF), Some("iter_batched_ref"));
        assert!(counts_setup("iter_batched_ref") && counts_setup("iter_batched"));
        let iter = BATCHED_REF.replace("iter_batched_ref", "iter");
        assert_eq!(boundary(&iter), Some("iter"));
        assert!(!counts_setup("iter") && !counts_setup("iter_custom"));
    }

    #[test]
    fn one_dump_option_per_method_by_its_exact_name() {
        let options = dump_options();
        assert_eq!(
            options[0],
            "--dump-after=criterion::bencher::Bencher<M>::iter"
        );
        assert!(options.iter().all(|o| !o.contains('*')));
        assert!(options.iter().any(|o| o.ends_with("::iter_batched_ref")));
    }

    #[test]
    fn the_program_s_end_or_another_function_names_no_method() {
        let end = BATCHED_REF.replace(
            "--dump-after=criterion::bencher::Bencher<M>::iter_batched_ref",
            "Program termination",
        );
        assert_eq!(boundary(&end), None);
        let other = BATCHED_REF.replace("criterion::bencher::Bencher<M>", "divan::Bencher2");
        assert_eq!(boundary(&other), None);
        // A trigger line among the costs is not the header's.
        assert_eq!(
            boundary(
                "fn=(1) f\ndesc: Trigger: --dump-after=criterion::bencher::Bencher<M>::iter\n"
            ),
            None
        );
    }
}
