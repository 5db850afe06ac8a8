use super::*;

/// The format specification's own kind of example: compressed names, a call with its inclusive cost, a
/// relative position and a missing count.
const SMALL: &str = "# callgrind format\nversion: 1\npositions: line\nevents: Dr Ir\nsummary: 9 1000\n\n\
    fl=(1) a.rs\nfn=(1) main\n10 3 100\n+1 2\ncfn=(2) work\ncalls=2 20\n11 5 800\n* 0 50\n\n\
    fn=(2)\n20 1 800\n\nfn=(3) _ZN4demo5extra17h0123456789abcdefE\n-5 0 50\n";

#[test]
fn own_costs_and_calls_are_read_by_name_with_compressed_names_and_the_ir_column() {
    let graph = read_call_graph(SMALL).unwrap();
    // `main`: 100 + 0 (the `+1 2` line has no `Ir`) + 50 of its own; 800 in its calls to `work`.
    assert_eq!(graph.own["main"], 150);
    assert_eq!(graph.own["work"], 800);
    assert_eq!(graph.calls[&("main".to_string(), "work".to_string())], 800);
    // A mangled name (legacy Rust symbol) is demangled, without its hash.
    assert_eq!(graph.own["demo::extra"], 50);
    let inclusive = graph.inclusive();
    assert_eq!(
        (
            inclusive["main"],
            inclusive["work"],
            inclusive["demo::extra"]
        ),
        (950, 800, 50)
    );
}

#[test]
fn two_positions_a_jump_and_a_name_used_before_it_is_defined() {
    let text =
        "positions: instr line\nevents: Ir\nfn=(1) f\n0x10 3 7\njump=2 +4 +1\n+4 +1\n+2 * 5\n";
    // The line after `jump=` carries no cost; `+2 * 5` is instruction +2, the same line, 5 instructions.
    assert_eq!(read_call_graph(text).unwrap().own["f"], 12);
    let err = read_call_graph("events: Ir\nfn=(4)\n1 2\n").unwrap_err();
    assert!(err.contains("`(4)` is used before it is defined"), "{err}");
    assert_eq!(read_call_graph("fn=f\n").unwrap_err(), "no `events:` line");
    assert!(
        read_call_graph("events: Dr\n")
            .unwrap_err()
            .contains("no `Ir` event")
    );
    assert!(
        read_call_graph("events: Ir\n1 2\n")
            .unwrap_err()
            .contains("before any `fn=`")
    );
    assert!(
        read_call_graph("events: Ir\nfn=f\n1 x\n")
            .unwrap_err()
            .contains("`x` is not a count")
    );
}

#[test]
fn rust_symbols_are_demangled_and_other_names_kept() {
    assert_eq!(demangle("_ZN4demo4work17h0123456789abcdefE"), "demo::work");
    assert_eq!(demangle("_RNvCs1234_4demo4work"), "demo::work");
    assert_eq!(
        demangle("criterion::bencher::Bencher<M>::iter"),
        "criterion::bencher::Bencher<M>::iter"
    );
    assert_eq!(demangle("memcpy@@GLIBC_2.14"), "memcpy@@GLIBC_2.14");
    assert_eq!(
        demangle("_ZN4demo4work17h0123456789abcdefE@plt"),
        "demo::work@plt"
    );
}

#[test]
fn per_iteration_is_the_difference_over_the_iterations_largest_first() {
    let map = |pairs: &[(&str, u64)]| -> BTreeMap<String, u64> {
        pairs.iter().map(|(n, c)| (n.to_string(), *c)).collect()
    };
    let before = map(&[("a", 110), ("b", 50), ("same", 7)]);
    let after = map(&[("a", 210), ("b", 450), ("new", 30), ("same", 7)]);
    assert_eq!(
        per_iteration(&before, &after, 10),
        [
            ("b".to_string(), 40.0),
            ("a".to_string(), 10.0),
            ("new".to_string(), 3.0)
        ]
    );
}

#[test]
fn harness_frames_and_boundaries_are_told_from_the_routine() {
    for boundary in [
        "criterion::bencher::Bencher<M>::iter",
        "criterion::bencher::Bencher<M>::iter_batched",
        "divan::benchmark::Bencher<A,B>::bench_loop_local",
        "divan::benchmark::BenchContext::sample_recorder::{{closure}}",
    ] {
        assert!(is_boundary(boundary), "{boundary}");
    }
    assert!(is_boundary("divan::thread_pool::TaskShared<F>::new::call"));
    assert!(!is_boundary(
        "<divan::alloc::AllocProfiler as core::alloc::global::GlobalAlloc>::alloc"
    ));
    assert!(!is_boundary(
        "criterion::bencher::Bencher<M>::assert_iterated"
    ));
    assert!(!is_boundary("criterion::routine::Routine::profile"));
    for own in [
        "<std::time::Instant>::now",
        "core::hint::black_box",
        "<I as core::iter::traits::collect::IntoIterator>::into_iter",
        "<criterion::measurement::WallTime as criterion::measurement::Measurement>::start",
        "clock_gettime@@GLIBC_2.17",
        "0x000000000001ab70",
    ] {
        assert!(is_harness_own(own), "{own}");
    }
    for routine in [
        "work::bench::{{closure}}::{{closure}}",
        "demo::work",
        "<demo::Thing as core::ops::drop::Drop>::drop",
    ] {
        assert!(!is_harness_own(routine), "{routine}");
    }
}

#[test]
fn the_routine_leaves_out_the_harness_and_what_is_above_it() {
    // `outer` calls `iter`, which reads the clock and calls the routine `closure`; the routine calls
    // `work` and `memcpy`, which the harness calls too; `work` calls itself.
    let calls = [
        ("main", "outer", 1000),
        ("outer", "criterion::bencher::Bencher<M>::iter", 990),
        ("criterion::bencher::Bencher<M>::iter", "outer", 5),
        (
            "criterion::bencher::Bencher<M>::iter",
            "<std::time::Instant>::now",
            30,
        ),
        ("criterion::bencher::Bencher<M>::iter", "memcpy", 8),
        (
            "criterion::bencher::Bencher<M>::iter",
            "bench::{{closure}}",
            900,
        ),
        ("bench::{{closure}}", "demo::work", 700),
        ("bench::{{closure}}", "memcpy", 100),
        // A helper of the harness the routine calls does not make it the harness's driver.
        ("bench::{{closure}}", "divan::black_box_drop", 3),
        ("demo::work", "demo::work", 40),
    ];
    let graph = CallGraph {
        own: BTreeMap::new(),
        calls: calls
            .iter()
            .map(|(a, b, c)| ((a.to_string(), b.to_string()), *c))
            .collect(),
    };
    let routine: Vec<(String, u64)> = graph.routine().into_iter().collect();
    assert_eq!(
        routine,
        [
            ("bench::{{closure}}".to_string(), 900),
            ("demo::work".to_string(), 700),
            ("divan::black_box_drop".to_string(), 3),
            ("memcpy".to_string(), 100),
        ]
    );
}

/// `fixtures/callgrind/criterion.16.out` and `.17.out` were written by Valgrind 3.19 here (x86_64):
/// `valgrind --tool=callgrind --dump-after='criterion::bencher::Bencher<M>::iter*' BENCH --bench
/// --profile-time 1 '^changed$'` on the end-to-end crate of `tests/e2e/instructions.rs` at BASE (its
/// routine `black_box(demo::work())`, `work` 20,000 `nop`s; the bench profile unoptimised), criterion
/// 0.8.2: the dumps of calls 16 and 17, of 2^15 and 2^16 iterations. The expected figures are those of the
/// files' call lines read by hand: the closure's calls cost 655,753,216 and 1,311,506,432, `work`'s
/// 655,425,536 and 1,310,851,072, the closure's `black_box` 131,072 and 262,144.
#[test]
fn valgrind_3_19_dumps_give_the_routine_per_iteration() {
    let before = read_call_graph(include_str!(
        "../../../../fixtures/callgrind/criterion.16.out"
    ))
    .unwrap();
    let after = read_call_graph(include_str!(
        "../../../../fixtures/callgrind/criterion.17.out"
    ))
    .unwrap();
    let routine = per_iteration(&before.routine(), &after.routine(), 1 << 15);
    assert_eq!(
        routine,
        [
            (
                "work::bench::{{closure}}::{{closure}}".to_string(),
                20_012.0
            ),
            ("demo::work".to_string(), 20_002.0),
            ("core::hint::black_box".to_string(), 4.0),
        ]
    );
    // Inclusive over the whole dump, `black_box` counts the harness's calls too (4 more per iteration),
    // and the loop's `Range::next` (32 per iteration) is there.
    let inclusive = per_iteration(&before.inclusive(), &after.inclusive(), 1 << 15);
    let of = |name: &str| inclusive.iter().find(|(n, _)| n == name).map(|(_, c)| *c);
    assert_eq!(of("core::hint::black_box"), Some(8.0));
    assert_eq!(of("demo::work"), Some(20_002.0));
    assert_eq!(
        of(
            "core::iter::range::<impl core::iter::traits::iterator::Iterator for core::ops::range::Range<A>>::next"
        ),
        Some(32.0)
    );
}

/// `fixtures/callgrind/divan-n100.8.out` and `divan-n200.8.out` were written by Valgrind 3.19 here
/// (x86_64): `valgrind --tool=callgrind --dump-before='*sync_impl' BENCH --bench --sample-count 4
/// --sample-size N --exact b::plain` at N = 100 and 200, divan 0.1.21, the bench profile optimised, the
/// benchmark `#[divan::bench] fn plain() -> u64 { dv::work(divan::black_box(100)) }` (`work` an
/// `#[inline(never)]` fold over 0..n): each process's 8th dump, the last sample's loop. Divan's loop is
/// inlined into `divan::thread_pool::TaskShared<F>::new::call`, which calls `b::plain` (820 + 81,180 and
/// 820 + 163,180 in the files' call lines) and reads the clock; `b::plain` calls `dv::work` (81,300 and
/// 162,600); the stack above (`Divan::run_tree`, `Bencher::bench`, `main`) carries the whole dump.
#[test]
fn valgrind_3_19_divan_dumps_give_the_routine_per_iteration() {
    let low = read_call_graph(include_str!(
        "../../../../fixtures/callgrind/divan-n100.8.out"
    ))
    .unwrap();
    let high = read_call_graph(include_str!(
        "../../../../fixtures/callgrind/divan-n200.8.out"
    ))
    .unwrap();
    assert_eq!(
        per_iteration(&low.routine(), &high.routine(), 100),
        [
            ("b::plain".to_string(), 820.0),
            ("dv::work".to_string(), 813.0)
        ]
    );
}
