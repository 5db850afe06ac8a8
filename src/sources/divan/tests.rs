//! Tests of divan's tree parser on the output of real divan runs (`fixtures/sources/divan/README.md`) and
//! on lines written to break it.

use super::*;
use crate::testutil::source_fixtures::read_fixture;

#[test]
fn units_are_read_as_divan_prints_them() {
    assert_eq!(time("54.18 ns"), Some(54.18));
    assert_eq!(time("13.31 µs"), Some(13.31 * 1e3));
    assert_eq!(time("2.5 ms"), Some(2.5 * 1e6));
    assert_eq!(time("1.5 s"), Some(1.5 * 1e9));
    assert_eq!(time("2 m"), Some(2.0 * 60e9));
    assert_eq!(time("780 ps"), Some(780.0 * 1e-3));
    assert_eq!(time("12 parsecs"), None);
    assert_eq!(time("fast ns"), None);
}

#[test]
fn rates_are_read_with_their_kind_and_scale() {
    let kind = |text: &str| rate(text).map(|(k, (low, _))| (k, low));
    assert_eq!(kind("1.177 GB/s"), Some((CounterKind::Bytes, 1.177e9)));
    assert_eq!(kind("2 KiB/s"), Some((CounterKind::Bytes, 2048.0)));
    assert_eq!(kind("61.53 Gitem/s"), Some((CounterKind::Items, 61.53e9)));
    assert_eq!(kind("280.6 Mchar/s"), Some((CounterKind::Chars, 280.6e6)));
    assert_eq!(kind("3 GHz"), Some((CounterKind::Cycles, 3e9)));
    // divan truncates to 4 digits, those before the point included.
    assert_eq!(truncated("1.23"), Some((1.23, 1.23 + 0.001)));
    assert_eq!(truncated("197.5"), Some((197.5, 197.6)));
    assert_eq!(truncated("0.137"), Some((0.137, 0.137 + 0.001)));
    assert_eq!(truncated("2048"), Some((2048.0, 2049.0)));
    assert_eq!(rate("3 Kiitem/s"), None);
    assert_eq!(rate("1.2 ns"), None);
}

#[test]
fn header_lines_name_the_target_and_nothing_else_is_one() {
    let line = "divan_bench          fastest       │ slowest       │ median        │ mean          │ samples │ iters";
    assert_eq!(header(line), Some("divan_bench"));
    assert_eq!(
        header("├─ fib  fastest │ slowest │ median │ mean │ samples │ iters"),
        None
    );
    assert_eq!(
        header("fastest │ slowest │ median │ mean │ samples │ iters"),
        None
    );
    assert_eq!(
        header("a fastest │ slowest │ median │ mean │ samples"),
        None
    );
}

#[test]
fn colours_are_stripped() {
    assert_eq!(plain("\x1b[1mdivan\x1b[0m x"), "divan x");
}

#[test]
fn a_tree_with_nothing_under_it_says_what_is_expected() {
    let text = "t  fastest │ slowest │ median │ mean │ samples │ iters\n";
    let message = parse(text, "out.txt").unwrap_err().to_string();
    assert_eq!(
        message,
        "out.txt: no samples: no benchmark found in this divan output input\nhint: save the whole \
         output of `cargo bench` for a divan target, from its header line (`NAME  fastest │ slowest \
         │ median │ ...`) on"
    );
}

#[test]
fn the_same_path_under_two_targets_is_two_benchmarks() {
    let text = "a  fastest │ slowest │ median │ mean │ samples │ iters\n\
                ╰─ f  1 ns │ 2 ns │ 1 ns │ 1 ns │ 1 │ 1\n\
                b  fastest │ slowest │ median │ mean │ samples │ iters\n\
                ├─ f  3 ns │ 4 ns │ 3 ns │ 3 ns │ 1 │ 1\n\
                ╰─ g  5 ns │ 6 ns │ 5 ns │ 5 ns │ 1 │ 1\n";
    let results = parse(text, "f").unwrap();
    let names: Vec<_> = results.benchmarks.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["a::f", "b::f", "b::g"]);
}

#[test]
fn a_median_that_is_not_a_time_is_an_error_naming_the_line() {
    let text = "cargo's line\n\
                a  fastest │ slowest │ median │ mean │ samples │ iters\n\
                ├─ f  1 ns │ 2 ns │ 1 ns │ 1 ns │ 1 │ 1\n\
                ╰─ g  5 ns │ 6 ns │ five │ 5 ns │ 1 │ 1\n";
    assert_eq!(
        parse(text, "out.txt").unwrap_err().to_string(),
        "out.txt: not divan's printed tree: line 4: the median `five` is not a time\nhint: save the \
         whole output of `cargo bench` for a divan target as it printed it; for a custom harness, write \
         its values as raw JSON (`docs/formats.md` §6) and compare those"
    );
}

#[test]
fn an_unknown_line_inside_a_tree_is_an_error_naming_it() {
    let text = "a  fastest │ slowest │ median │ mean │ samples │ iters\n\
                ├─ f  1 ns │ 2 ns │ 1 ns │ 1 ns │ 1 │ 1\n\
                printed by the benchmark\n\
                ╰─ g  5 ns │ 6 ns │ 5 ns │ 5 ns │ 1 │ 1\n";
    let message = parse(text, "out.txt").unwrap_err().to_string();
    assert!(
        message.starts_with(
            "out.txt: not divan's printed tree: line 3: `printed by the benchmark` is not a line of \
             divan's tree (a benchmark, a group, a counter or an allocation row)"
        ),
        "{message}"
    );
    // The same text as a measured run's output.
    assert_eq!(
        trees(text, Around::Nothing).unwrap_err(),
        "line 3: `printed by the benchmark` is not a line of divan's tree (a benchmark, a group, a \
         counter or an allocation row)"
    );
}

#[test]
fn lines_around_the_trees_are_refused_in_a_runs_output_only() {
    let text = "    Finished `bench` profile\n\
                a  fastest │ slowest │ median │ mean │ samples │ iters\n\
                ╰─ f  1 ns │ 2 ns │ 1 ns │ 1 ns │ 1 │ 1\n\n\
                     Running next\n";
    assert_eq!(trees(text, Around::Anything).unwrap().len(), 1);
    assert_eq!(
        trees(text, Around::Nothing).unwrap_err(),
        "line 1: `    Finished `bench` profile` is not a divan tree's root (`NAME  fastest │ slowest │ \
         median │ mean │ samples │ iters`)"
    );
}

#[test]
fn a_zero_median_is_below_the_resolution_and_leaves_its_benchmark_out() {
    let text = "a  fastest │ slowest │ median │ mean │ samples │ iters\n\
                ├─ noop  0 ns │ 0 ns │ 0 ns │ 0 ns │ 1 │ 1\n\
                ╰─ work  5 ns │ 6 ns │ 5 ns │ 5 ns │ 1 │ 1\n";
    let results = parse(text, "out.txt").unwrap();
    let names: Vec<&str> = results.benchmarks.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["a::work"]);
    assert_eq!(
        results.left_out,
        [crate::model::coverage::LeftOut::benchmark(
            "a::noop",
            None,
            crate::model::coverage::Reason::BelowResolution {
                printed: "0 ns".into()
            }
        )]
    );
    let only = "a  fastest │ slowest │ median │ mean │ samples │ iters\n\
                ╰─ noop  0 ns │ 0 ns │ 0 ns │ 0 ns │ 1 │ 1\n";
    let message = parse(only, "out.txt").unwrap_err().to_string();
    assert!(
        message.starts_with(
            "out.txt: no usable benchmark: every benchmark in out.txt was printed as 0, below its \
             harness's resolution: `a::noop` (printed `0 ns`)"
        ),
        "{message}"
    );
}

fn values(results: &Results, name: &str) -> Vec<f64> {
    let b = results.benchmarks.iter().find(|b| b.name == name).unwrap();
    assert!(b.runs.runs().iter().all(|r| r.samples().len() == 1));
    b.runs.values()
}

/// The exact counters of `name`; an estimated one fails the test.
fn counters(results: &Results, name: &str) -> Vec<(&'static str, f64)> {
    let b = results.benchmarks.iter().find(|b| b.name == name).unwrap();
    assert!(
        b.counters.iter().all(|c| c.exact),
        "{name}: {:?}",
        b.counters
    );
    b.counters
        .iter()
        .map(|c| (c.kind.name(), c.per_iteration))
        .collect()
}

#[test]
fn each_tree_of_the_fixture_is_one_run_of_each_benchmark() {
    let results = read_fixture("divan/base.txt").unwrap();
    let names: Vec<_> = results.benchmarks.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "divan_bench::checksum::64",
            "divan_bench::checksum::1024",
            "divan_bench::checksum::16384",
            "divan_bench::fib_20",
            "divan_bench::array_sum::8",
            "divan_bench::array_sum::32",
            "divan_bench::parse::integer",
            "divan_bench::parse::float::long",
            "divan_bench::parse::float::short",
            "divan_bench::push_items::Vec<u64>",
            "divan_bench::push_items::VecDeque<u64>",
        ]
    );
    // The median column of lines 9, 32, 55, 78 and 101, and of 16, 39, 62, 85 and 108.
    assert_eq!(
        values(&results, "divan_bench::fib_20"),
        [
            15.39 * 1e3,
            15.38 * 1e3,
            15.38 * 1e3,
            15.38 * 1e3,
            15.38 * 1e3
        ]
    );
    assert_eq!(
        values(&results, "divan_bench::parse::float::long"),
        [37.89, 37.91, 37.91, 37.91, 37.89]
    );
    assert_eq!(
        values(&results, "divan_bench::push_items::Vec<u64>"),
        [24.75, 26.63, 27.74, 25.07, 24.93]
    );
    // The bench file's counters: `BytesCount::new(len)` of `checksum`'s argument, 100 items per push.
    assert_eq!(
        counters(&results, "divan_bench::checksum::64"),
        [("bytes", 64.0)]
    );
    // 16384 bytes at 13.32 µs: `1.229 GB/s` and the time's 4 digits bound it to about 0.1 % only.
    let big = &results
        .benchmarks
        .iter()
        .find(|b| b.name == "divan_bench::checksum::16384")
        .unwrap()
        .counters;
    assert_eq!(big.len(), 1);
    assert!(!big[0].exact);
    assert!(
        (big[0].per_iteration / 16384.0 - 1.0).abs() < 1e-3,
        "{big:?}"
    );
    assert_eq!(
        counters(&results, "divan_bench::push_items::Vec<u64>"),
        [("items", 100.0)]
    );
    assert_eq!(counters(&results, "divan_bench::fib_20"), []);
    assert!(results.notes.is_empty(), "{:?}", results.notes);
}

#[test]
fn counters_set_in_a_real_bench_file_are_found_per_iteration() {
    // `fixtures/sources/divan/README.md`: the counters the bench file of `counters-0.1.21.txt` sets.
    let results = read_fixture("divan/counters-0.1.21.txt").unwrap();
    assert_eq!(counters(&results, "tiny::bytes64"), [("bytes", 64.0)]);
    assert_eq!(counters(&results, "tiny::bytes_arg::16"), [("bytes", 16.0)]);
    assert_eq!(
        counters(&results, "tiny::bytes_arg::256"),
        [("bytes", 256.0)]
    );
    assert_eq!(counters(&results, "tiny::chars12"), [("chars", 12.0)]);
    assert_eq!(counters(&results, "tiny::items100"), [("items", 100.0)]);
    // Two counters, then allocation rows (`AllocProfiler`), which are skipped.
    assert_eq!(
        counters(&results, "tiny::collect_six"),
        [("bytes", 48.0), ("items", 6.0)]
    );
    assert_eq!(values(&results, "tiny::collect_six"), [15.81]);
    // Thread counts are leaves of their own; no counter on them.
    assert_eq!(values(&results, "tiny::shared::t=2"), [13.93]);
    assert_eq!(counters(&results, "tiny::shared::t=1"), []);
    assert_eq!(results.benchmarks.len(), 13);
}

#[test]
fn the_first_release_prints_the_same_tree() {
    let results = read_fixture("divan/v0.1.0.txt").unwrap();
    let names: Vec<_> = results.benchmarks.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "old::fib",
            "old::group::inner",
            "old::parse::u64",
            "old::parse::u8"
        ]
    );
    assert_eq!(values(&results, "old::fib"), [1.562 * 1e3]);
    assert_eq!(values(&results, "old::group::inner"), [0.998]);
}

#[test]
fn cargos_own_lines_between_the_trees_are_skipped() {
    let results = read_fixture("divan/head.txt").unwrap();
    assert_eq!(results.benchmarks.len(), 11);
    // Lines 6, 32, 60, 86 and 112: the planted slowdown doubled checksum's work.
    assert_eq!(values(&results, "divan_bench::checksum::64"), [106.7; 5]);
    assert!(results.notes.is_empty(), "{:?}", results.notes);
}

#[test]
fn divan_0_1_11_14_and_17_print_the_tree_of_0_1_21() {
    // The same bench file built with each version (`fixtures/sources/divan/README.md`): generic `types`,
    // `args`, `consts`, threads, counters and allocation rows read alike.
    let described = |file: &str| {
        let results = read_fixture(file).unwrap();
        let mut all = results
            .benchmarks
            .iter()
            .map(|b| (b.name.clone(), counters(&results, &b.name)))
            .collect::<Vec<_>>();
        // 0.1.11 sorts generic types by name (`u64` before `u8`), later versions keep their order.
        all.sort_by(|a, b| a.0.cmp(&b.0));
        all
    };
    let latest = described("divan/counters-0.1.21.txt");
    assert_eq!(latest.len(), 13);
    for version in ["0.1.11", "0.1.14", "0.1.17"] {
        assert_eq!(
            described(&format!("divan/counters-{version}.txt")),
            latest,
            "{version}"
        );
    }
}
