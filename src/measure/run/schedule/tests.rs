use super::*;

fn participant(slug: &'static str, targets: &[&str]) -> Participant {
    Participant::for_tests(slug, slug, targets)
}

fn order(steps: &[ScheduledRun], participants: &[Participant]) -> Vec<String> {
    steps
        .iter()
        .map(|s| {
            let p = &participants[s.participant];
            format!("{}{}:{}", p.slug, s.block, p.binaries[s.binary].target)
        })
        .collect()
}

#[test]
fn every_block_runs_each_target_once_per_revision() {
    let ps = [participant("A", &["x", "y"]), participant("B", &["x", "y"])];
    let steps = schedule(3, &ps, 7);
    let got = order(&steps, &ps);
    assert_eq!(got.len(), 12);
    for block in 0..3 {
        let mut this: Vec<&String> = got
            .iter()
            .filter(|s| s[1..].starts_with(&block.to_string()))
            .collect();
        this.sort();
        let expected = [
            format!("A{block}:x"),
            format!("A{block}:y"),
            format!("B{block}:x"),
            format!("B{block}:y"),
        ];
        assert_eq!(this, expected.iter().collect::<Vec<_>>(), "block {block}");
    }
    // Blocks follow each other: no run of block 1 before the last of block 0.
    let blocks: Vec<u32> = steps.iter().map(|s| s.block).collect();
    assert!(blocks.windows(2).all(|w| w[0] <= w[1]));
}

#[test]
fn the_seed_decides_the_order_and_repeats_it() {
    let ps = [participant("A", &["x"]), participant("B", &["x"])];
    let first = |seed| {
        schedule(64, &ps, seed)
            .chunks(2)
            .map(|pair| pair[0].participant)
            .collect::<Vec<usize>>()
    };
    assert_eq!(first(1), first(1));
    assert_ne!(first(1), first(2));
    // Each revision goes first in some blocks and second in others, about half the time each:
    // 64 fair coin flips fall outside 16..=48 with probability below 1e-4.
    let a_first = first(1).iter().filter(|&&p| p == 0).count();
    assert!((16..=48).contains(&a_first), "{a_first}");
}

#[test]
fn the_shuffle_is_uniform_over_orders() {
    // 6 orders of 3 items, 6000 shuffles: each order expected 1000 times; a count outside 850..1150 has
    // probability below 1e-5 for a uniform shuffle.
    let mut rng = SplitMix64::new(42);
    let mut counts = std::collections::HashMap::new();
    for _ in 0..6000 {
        let mut items = [0, 1, 2];
        shuffle(&mut rng, &mut items);
        *counts.entry(items).or_insert(0) += 1;
    }
    assert_eq!(counts.len(), 6);
    assert!(
        counts.values().all(|&c| (850..1150).contains(&c)),
        "{counts:?}"
    );
}

#[test]
fn a_target_of_one_revision_runs_alone() {
    let ps = [participant("A", &["x"]), participant("B", &["x", "new"])];
    let got = order(&schedule(1, &ps, 3), &ps);
    assert_eq!(got.len(), 3);
    assert_eq!(got[2], "B0:new");
}
