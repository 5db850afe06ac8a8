//! Which harness a bench target uses (`detect`, from its source, else from the package's dependencies),
//! and whether a build failed because a bench file needs nightly (`needs_nightly`).
//!
//! Must not: start processes, or read a file (the caller gives the source and the dependencies).

use super::kinds::Harness;

/// The harness of one bench target: the one its source names, else the one the package depends on;
/// `Err` says what was found instead, for the message.
pub(crate) fn detect(source: &str, dependencies: &[String]) -> Result<Harness, String> {
    let code: String = source
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let compact: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    let named: Vec<Harness> = [
        (Harness::Criterion, compact.contains("criterion_main!")),
        (Harness::Divan, compact.contains("divan::main(")),
        (Harness::Libtest, compact.contains("#[bench]")),
    ]
    .into_iter()
    .filter_map(|(h, found)| found.then_some(h))
    .collect();
    if let [one] = named[..] {
        return Ok(one);
    }
    let depends = |names: &[&str]| dependencies.iter().any(|d| names.contains(&d.as_str()));
    let criterion = depends(&["criterion", "codspeed-criterion-compat"]);
    let divan = depends(&["divan", "codspeed-divan-compat"]);
    match (criterion, divan) {
        (true, false) => Ok(Harness::Criterion),
        (false, true) => Ok(Harness::Divan),
        _ if named.len() > 1 => Err("its source names several harnesses".to_string()),
        (true, true) => Err(
            "the package depends on both criterion and divan and the source names neither".into(),
        ),
        (false, false) => Err("a plain `main` with neither dependency".to_string()),
    }
}

/// Whether cargo's build errors say that a bench file needs nightly (`#![feature(test)]` on a stable or
/// beta toolchain: E0554); the file it names when so.
pub(crate) fn needs_nightly(stderr: &str) -> Option<String> {
    let at = stderr.find("E0554")?;
    let after = &stderr[at..];
    let file = after
        .lines()
        .find_map(|l| l.trim_start().strip_prefix("--> "))
        .map(|l| l.split(':').next().unwrap_or(l).to_string());
    Some(file.unwrap_or_default())
}
