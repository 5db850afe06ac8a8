//! Tests of the harness seam: the divan and libtest readers on real and documented output, detection, and
//! the arguments of a run per harness.

use super::output::divan_rows;
use super::*;
use crate::model::Results;
use crate::model::coverage::{LeftOut, Reason};

const DIVAN: &str = include_str!("../../../fixtures/harness/divan-0.1.21.txt");

/// `(name, median)` of every benchmark of one divan run's output, as the measuring path reads it.
fn divan_parse(text: &str) -> Result<Vec<(String, f64)>, String> {
    Ok(divan_rows(text)?
        .into_iter()
        .map(|(name, median, _)| (name, median))
        .collect())
}

#[test]
fn divans_tree_gives_every_benchmark_by_its_path_with_its_median() {
    let found = divan_parse(DIVAN).unwrap();
    let names: Vec<&str> = found.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "work::changed",
            "work::with_args::1",
            "work::with_args::2",
            "work::with_args::8",
            "work::generic::u8",
            "work::generic::u64",
            "work::group::inner",
            "work::group::deeper::leaf",
            "work::konst::3",
            "work::konst::5",
        ]
    );
    // The median column, in nanoseconds (`34.61 ns`, `1.082 ns`, `0.273 ns`, `0.137 ns`).
    let median = |name: &str| found.iter().find(|(n, _)| n == name).unwrap().1;
    assert_eq!(median("work::changed"), 34.61);
    assert_eq!(median("work::generic::u64"), 1.082);
    assert_eq!(median("work::group::deeper::leaf"), 0.273);
    assert_eq!(median("work::konst::5"), 0.137);
}

#[test]
fn divans_units_scale_to_nanoseconds() {
    let text = "\
t          fastest  │ slowest  │ median   │ mean     │ samples │ iters
├─ a       1 µs     │ 2 µs     │ 1.5 µs   │ 1.6 µs   │ 10      │ 10
├─ b       1 ms     │ 2 ms     │ 2.5 ms   │ 1.6 ms   │ 10      │ 10
├─ c       1 s      │ 2 s      │ 1.25 s   │ 1.6 s    │ 10      │ 10
╰─ d       1 ps     │ 2 ps     │ 500 ps   │ 1.6 ps   │ 10      │ 10
";
    let found = divan_parse(text).unwrap();
    let values: Vec<f64> = found.iter().map(|(_, v)| *v).collect();
    assert_eq!(values, [1500.0, 2.5e6, 1.25e9, 0.5]);
}

#[test]
fn divan_output_that_is_not_its_tree_is_refused_with_the_line() {
    assert_eq!(divan_parse("").unwrap_err(), "it printed nothing");
    assert_eq!(
        divan_parse("hello from main\n").unwrap_err(),
        "line 1: `hello from main` is not a divan tree's root (`NAME  fastest │ slowest │ median │ mean │ samples │ iters`)"
    );
    let three_columns =
        "t   fastest │ slowest │ median │ mean │ samples │ iters\n╰─ a   1 ns │ 2 ns │ 3 ns\n";
    assert_eq!(
        divan_parse(three_columns).unwrap_err(),
        "line 2: `╰─ a   1 ns │ 2 ns │ 3 ns` has 3 columns, divan prints 6 (fastest, slowest, median, mean, samples, iters)"
    );
    let bad_median = "t  fastest │ slowest │ median │ mean │ samples │ iters\n╰─ a  1 ns │ 2 ns │ fast │ 3 ns │ 1 │ 1\n";
    assert_eq!(
        divan_parse(bad_median).unwrap_err(),
        "line 2: the median `fast` is not a time"
    );
}

#[test]
fn a_divan_filter_that_selects_nothing_reads_as_no_benchmarks() {
    // divan 0.1.21 prints its timer's precision alone when its filter matches no benchmark.
    assert_eq!(divan_parse("Timer precision: 20 ns\n").unwrap(), []);
    assert_eq!(
        divan_parse("Timer precision: 20 ns\ndone\n").unwrap_err(),
        "line 2: `done` is not a divan tree's root (`NAME  fastest │ slowest │ median │ mean │ samples │ iters`)"
    );
}

#[test]
fn libtest_bench_lines_give_ns_per_iter() {
    // Written from libtest's documented format (no nightly here): integer and fractional forms.
    let text = "
running 3 tests
test tests::bench_add     ... bench:       1,234 ns/iter (+/- 56)
test tests::bench_mul     ... bench:          12.50 ns/iter (+/- 0.75)
test tests::not_a_bench   ... ignored
test tests::bench_big     ... bench:   1_234_567 ns/iter (+/- 8,910)

test result: ok. 0 passed; 0 failed; 1 ignored; 3 measured; 0 filtered out; finished in 3.21s
";
    assert_eq!(
        libtest::parse(text).unwrap(),
        [
            ("tests::bench_add".to_string(), 1234.0),
            ("tests::bench_mul".to_string(), 12.5),
            ("tests::bench_big".to_string(), 1234567.0),
        ]
    );
    // A filter that selects nothing.
    let none = "\nrunning 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 2 filtered out\n";
    assert_eq!(libtest::parse(none).unwrap(), []);
}

#[test]
fn libtest_output_that_is_not_its_format_is_refused() {
    assert_eq!(libtest::parse(" \n").unwrap_err(), "it printed nothing");
    assert_eq!(
        libtest::parse("hello\n").unwrap_err(),
        "it printed no libtest bench lines (`test NAME ... bench: N ns/iter (+/- M)`)"
    );
    assert_eq!(
        libtest::parse("test a ... bench: many ns/iter (+/- 1)\n").unwrap_err(),
        "line 1: `many` is not a number of ns/iter"
    );
}

#[test]
fn a_zero_value_is_left_out_below_the_resolution() {
    // libtest's documented bench line (`test NAME ... bench: N ns/iter (+/- M)`), a 0 as rounded.
    let text = "running 2 tests\ntest a ... bench:    0 ns/iter (+/- 0)\ntest b ... bench:    7 ns/iter (+/- 1)\n";
    let results = read_output(Harness::Libtest, text, "run-1").unwrap();
    assert_eq!(results.benchmarks.len(), 1);
    assert_eq!(results.benchmarks[0].name, "b");
    assert_eq!(results.benchmarks[0].runs.values(), [7.0]);
    assert!(results.notes.is_empty(), "{:?}", results.notes);
    assert_eq!(
        results.left_out,
        [LeftOut::benchmark(
            "a",
            None,
            Reason::BelowResolution {
                printed: "0 ns/iter".into()
            }
        )]
    );
    // divan 0.1's tree prints a median of `0 ns`.
    let divan = "a  fastest │ slowest │ median │ mean │ samples │ iters\n\
                 ├─ noop  0 ns │ 0 ns │ 0 ns │ 0 ns │ 1 │ 1\n\
                 ╰─ work  5 ns │ 6 ns │ 5 ns │ 5 ns │ 1 │ 1\n";
    let results = read_output(Harness::Divan, divan, "run-1").unwrap();
    assert_eq!(results.benchmarks.len(), 1);
    assert_eq!(
        results.left_out,
        [LeftOut::benchmark(
            "a::noop",
            None,
            Reason::BelowResolution {
                printed: "0 ns".into()
            }
        )]
    );
}

#[test]
fn the_source_names_the_harness_else_the_dependencies_do() {
    let deps = |d: &[&str]| d.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let crit = "criterion_group!(benches, b);\ncriterion_main!(benches);";
    let div = "fn main() {\n    divan::main();\n}";
    let lib = "#![feature(test)]\nextern crate test;\n#[bench]\nfn b(b: &mut test::Bencher) {}";
    assert_eq!(
        detect(crit, &deps(&["criterion", "divan"])),
        Ok(Harness::Criterion)
    );
    assert_eq!(
        detect(div, &deps(&["criterion", "divan"])),
        Ok(Harness::Divan)
    );
    assert_eq!(detect(lib, &deps(&[])), Ok(Harness::Libtest));
    // A custom main: the one harness the package depends on.
    let custom = "fn main() { run_all(); }";
    assert_eq!(
        detect(custom, &deps(&["criterion"])),
        Ok(Harness::Criterion)
    );
    assert_eq!(
        detect(custom, &deps(&["divan", "rand"])),
        Ok(Harness::Divan)
    );
    assert_eq!(
        detect(custom, &deps(&["rand"])),
        Err("a plain `main` with neither dependency".to_string())
    );
    assert_eq!(
        detect(custom, &deps(&["criterion", "divan"])),
        Err(
            "the package depends on both criterion and divan and the source names neither"
                .to_string()
        )
    );
    // A harness named in a comment only does not count.
    assert_eq!(
        detect("// divan::main();\nfn main() {}", &deps(&[])),
        Err("a plain `main` with neither dependency".to_string())
    );
}

#[test]
fn the_narrowed_filter_selects_exact_names_per_harness() {
    let a = "work::with_args::2".to_string();
    let b = "b.c".to_string();
    assert_eq!(
        Harness::Divan.exact(&[&a, &b]),
        r"^(?:work::with_args::2|b\.c)$"
    );
    assert_eq!(Harness::Libtest.exact(&[&a, &b]), "work::with_args::2\nb.c");
    // divan lists a benchmark with thread counts once, and its filter sees it by that path.
    assert_eq!(Harness::Divan.listed_name(&t1_name()), "tiny::shared");
    assert_eq!(Harness::Criterion.listed_name(&t1_name()), t1_name());
    // divan's filter sees a benchmark with thread counts by its path without them.
    let (t1, t2) = (
        "tiny::shared::t=1".to_string(),
        "tiny::shared::t=2".to_string(),
    );
    let not_threads = "tiny::t=x".to_string();
    assert_eq!(
        Harness::Divan.exact(&[&t1, &t2, &not_threads]),
        r"^(?:tiny::shared|tiny::t=x)$"
    );
}

#[test]
fn a_stable_toolchain_refusing_feature_test_is_recognised() {
    let stderr = "error[E0554]: `#![feature]` may not be used on the stable release channel\n --> benches/old.rs:1:1\n  |\n1 | #![feature(test)]\n";
    assert_eq!(needs_nightly(stderr), Some("benches/old.rs".to_string()));
    assert_eq!(needs_nightly("error[E0425]: cannot find value"), None);
}

#[test]
fn divan_and_libtest_runs_get_their_own_arguments() {
    let args = crate::cli::RunArgs {
        seed: Some(1),
        filter: Some("enc".into()),
        ..Default::default()
    };
    let options = crate::plan::run_options(&args, false, None)
        .unwrap()
        .per_run();
    let words = |v: Vec<String>| v.join(" ");
    assert_eq!(
        words(Harness::Divan.run_args(&options, "b", None)),
        "--bench --color never --sample-count 10 --min-time 0.05 --max-time 0.07 enc"
    );
    assert_eq!(
        words(Harness::Divan.run_args(&options, "b", Some("^(?:x)$".into()))),
        "--bench --color never --sample-count 10 --min-time 0.05 --max-time 0.07 ^(?:x)$"
    );
    assert_eq!(
        words(Harness::Libtest.run_args(&options, "b", None)),
        "--bench enc"
    );
    assert_eq!(
        words(Harness::Libtest.run_args(&options, "b", Some("a\nb::c".into()))),
        "--bench --exact a b::c"
    );
    assert_eq!(
        Harness::Criterion.run_args(&options, "b", None),
        options.criterion_args("b")
    );
    assert_eq!(
        Harness::Divan.list_args(Some("enc")),
        (
            vec![
                "--list".to_string(),
                "--format".into(),
                "terse".into(),
                "enc".into()
            ],
            Some(("NEXTEST", "1"))
        )
    );
}

#[test]
fn a_saved_tree_and_a_measured_run_name_and_count_a_benchmark_identically() {
    // The standard output of real divan 0.1.21 runs: read as `compare` reads a saved file, and as a run
    // this tool measured.
    for (file, text) in [
        ("divan-0.1.21.txt", DIVAN),
        (
            "counters-0.1.21.txt",
            include_str!("../../../fixtures/sources/divan/counters-0.1.21.txt"),
        ),
    ] {
        let saved = crate::sources::divan::parse(text, file).unwrap();
        let measured = read_output(Harness::Divan, text, file).unwrap();
        let described = |r: &Results| {
            r.benchmarks
                .iter()
                .map(|b| (b.name.clone(), b.runs.values(), b.counters.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(described(&saved), described(&measured), "{file}");
        assert!(!saved.benchmarks.is_empty(), "{file}");
    }
    // divan's own `--list --format terse` names (what the filter matches), for the same bench file.
    let measured = read_output(Harness::Divan, DIVAN, "run").unwrap();
    assert_eq!(measured.benchmarks[0].name, "work::changed");
    let counters = &measured
        .benchmarks
        .iter()
        .find(|b| b.name == "work::group::inner")
        .unwrap()
        .counters;
    // `5.76 GB/s` at a median of `11.11 ns`: the bench file's `BytesCount::new(64)`.
    assert_eq!(counters.len(), 1);
    assert_eq!(counters[0].kind.name(), "bytes");
    assert_eq!(counters[0].per_iteration, 64.0);
}

fn t1_name() -> String {
    "tiny::shared::t=1".to_string()
}

#[test]
fn criterion_before_0_4_runs_in_whole_seconds_rounded_up() {
    let run = |warm_up: f64, measurement: f64| super::per_run::PerRun {
        filter: None,
        warm_up_secs: warm_up,
        measurement_secs: measurement,
        divan_secs: (0.02, 0.05),
        sample_size: 10,
    };
    let words = |r: &super::per_run::PerRun| {
        Harness::Criterion
            .run_args(&r.in_whole_seconds(), "b", None)
            .join(" ")
    };
    // The default run (0.1 s + 0.2 s) as criterion 0.3 takes it: 1 s each, the least it can.
    assert_eq!(
        words(&run(0.1, 0.2)),
        "--bench --save-baseline b --warm-up-time 1 --measurement-time 1 --sample-size 10 --nresamples 1000 --noplot"
    );
    // Longer runs are rounded up, never cut; whole seconds stay as given.
    assert_eq!(words(&run(1.5, 3.0)).split(' ').nth(4), Some("2"));
    assert_eq!(words(&run(1.5, 3.0)).split(' ').nth(6), Some("3"));
}

#[test]
fn divan_runs_its_own_short_length_unless_the_times_are_given() {
    let per_run = |args: crate::cli::RunArgs| {
        crate::plan::run_options(&args, false, None)
            .unwrap()
            .per_run()
    };
    let divan = |args| Harness::Divan.run_args(&per_run(args), "b", None).join(" ");
    let criterion = |args| {
        Harness::Criterion
            .run_args(&per_run(args), "b", None)
            .join(" ")
    };
    // Not given: divan 0.02 s + 0.05 s, criterion 0.1 s + 0.2 s.
    let default = crate::cli::RunArgs::default;
    assert!(divan(default()).contains("--min-time 0.05 --max-time 0.07"));
    assert!(criterion(default()).contains("--warm-up-time 0.1 --measurement-time 0.2"));
    // Given: both harnesses run what was asked.
    let given = || crate::cli::RunArgs {
        warm_up_time: Some(0.5),
        measurement_time: Some(1.0),
        ..Default::default()
    };
    assert!(divan(given()).contains("--min-time 1 --max-time 1.5"));
    assert!(criterion(given()).contains("--warm-up-time 0.5 --measurement-time 1"));
    // One given: divan takes it, and its own default for the other.
    let measurement_only = crate::cli::RunArgs {
        measurement_time: Some(0.2),
        ..Default::default()
    };
    assert!(divan(measurement_only).contains("--min-time 0.2 --max-time 0.22"));
}
