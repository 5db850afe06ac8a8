//! git, as a child process: finding the repository, and temporary worktrees for committed revisions.
//! The user's working tree, index, branches, stash and config are never written: only `git worktree add
//! --detach` under our own directory, removed again by [`Worktree`]'s `Drop` (also on error and Ctrl-C).
//!
//! Submodules are checked out in the worktree as `git submodule update --init --recursive` would, but
//! `git submodule init` run in a linked worktree writes each submodule's URL and `active` flag into the
//! repository's shared config, and resolves a relative URL (`../lib`) against the worktree's directory when
//! the repository has no remote. So the top-level submodules get their URL and `active` flag as
//! configuration given to that one git process (the user's configured URL, else the one in `.gitmodules`,
//! made absolute against the repository's remote or directory as git-submodule(1) describes), and nested
//! submodules are set up from inside each submodule, whose config lives in the worktree's own git directory.
//! A submodule whose commit the user's own clone of it already holds is cloned from there: no network.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::{MeasureError, process};

/// A git repository, addressed by its top-level directory.
#[derive(Debug, Clone)]
pub(super) struct Git {
    pub root: PathBuf,
}

impl Git {
    /// The repository containing `dir`.
    pub(super) fn discover(dir: &Path) -> Result<Git, MeasureError> {
        let mut command = Command::new("git");
        command
            .arg("-C")
            .arg(dir)
            .args(["rev-parse", "--show-toplevel"]);
        let out = process::capture(&mut command)?;
        if !out.status.success() {
            return Err(MeasureError::NotGitRepository {
                path: dir.to_path_buf(),
            });
        }
        let root = String::from_utf8_lossy(&out.stdout).trim().to_string();
        Ok(Git {
            root: PathBuf::from(root),
        })
    }

    /// Runs `git ARGS` in the repository and returns its trimmed stdout, or an error quoting its stderr.
    pub(super) fn output(&self, args: &[&str]) -> Result<String, MeasureError> {
        self.output_with(args, true)
    }

    fn output_with(&self, args: &[&str], stoppable: bool) -> Result<String, MeasureError> {
        let mut command = Command::new("git");
        command.arg("-C").arg(&self.root).args(args);
        let out = if stoppable {
            process::capture(&mut command)?
        } else {
            process::capture_to_end(&mut command)?
        };
        if !out.status.success() {
            return Err(MeasureError::Git {
                command: process::describe(&command),
                stderr: out.stderr_text(),
            });
        }
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
    }

    /// A shallow clone (`git clone --depth`, actions/checkout's default): its history stops at the commits
    /// fetched. `false` when git cannot tell.
    pub(super) fn is_shallow(&self) -> bool {
        self.output(&["rev-parse", "--is-shallow-repository"])
            .is_ok_and(|answer| answer == "true")
    }

    /// No ref of the repository names a commit: `git init` and nothing committed yet. `false` when git
    /// cannot tell.
    pub(super) fn has_no_commits(&self) -> bool {
        self.output(&["rev-list", "-n", "1", "--all"])
            .is_ok_and(|first| first.is_empty())
    }

    /// `git status --porcelain` is not empty (untracked files count, ignored ones do not).
    pub(super) fn is_dirty(&self) -> Result<bool, MeasureError> {
        Ok(!self.output(&["status", "--porcelain"])?.is_empty())
    }
}

/// A detached worktree of one commit, removed (with `git worktree prune`) when dropped.
#[derive(Debug)]
pub(super) struct Worktree {
    git: Git,
    pub path: PathBuf,
}

impl Worktree {
    /// `git worktree add --detach PATH SHA`, after clearing what an earlier, killed run may have left at
    /// PATH; submodules are initialised when the revision has `.gitmodules`.
    pub(super) fn add(git: &Git, sha: &str, path: PathBuf) -> Result<Worktree, MeasureError> {
        if path.exists() {
            remove_worktree(git, &path);
        }
        let text = path.to_string_lossy().into_owned();
        if let Err(error) = git.output(&["worktree", "add", "--detach", "--quiet", &text, sha]) {
            // Interrupted or failed half-way: leave neither a directory nor a registered worktree.
            remove_worktree(git, &path);
            return Err(error);
        }
        let worktree = Worktree {
            git: git.clone(),
            path,
        };
        if worktree.path.join(".gitmodules").exists() {
            update_submodules(git, &worktree.path)?;
        }
        Ok(worktree)
    }
}

/// One submodule of `.gitmodules`, as the worktree will get it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Submodule {
    name: String,
    path: String,
    /// Its URL: the user's configured one, else the one in `.gitmodules` made absolute.
    url: String,
    /// The user's own clone of it (`$GIT_DIR/modules/NAME`), when that holds the commit to check out.
    local: Option<PathBuf>,
}

/// Checks out the submodules of the worktree at `tree` without writing the user's config (see the module
/// documentation). Submodules the user's config marks inactive are left out, as in the user's tree.
fn update_submodules(git: &Git, tree: &Path) -> Result<(), MeasureError> {
    let mut listing = Command::new("git");
    listing.arg("-C").arg(tree).args([
        "config",
        "--file",
        ".gitmodules",
        "-z",
        "--get-regexp",
        r"^submodule\..*\.(path|url)$",
    ]);
    let out = process::capture(&mut listing)?;
    // Exit status 1: nothing matched, no submodule to check out.
    if out.status.code() == Some(1) {
        return Ok(());
    }
    if !out.status.success() {
        return Err(MeasureError::Git {
            command: process::describe(&listing),
            stderr: out.stderr_text(),
        });
    }
    let declared = String::from_utf8_lossy(&out.stdout);
    let user = |args: &[&str]| git.output(args).ok().filter(|v| !v.is_empty());
    let base = || remote_base(git);
    let mut submodules = Vec::new();
    for (name, path, url) in declarations(&declared) {
        let active = format!("submodule.{name}.active");
        if user(&["config", "--type=bool", "--get", &active]).as_deref() == Some("false") {
            continue;
        }
        let configured = format!("submodule.{name}.url");
        let url = match user(&["config", "--get", &configured]) {
            Some(configured) => configured,
            None => resolve_url(&base(), &url),
        };
        let local = local_clone(git, tree, &name, &path);
        submodules.push(Submodule {
            name,
            path,
            url,
            local,
        });
    }
    let (local, remote): (Vec<&Submodule>, Vec<&Submodule>) =
        submodules.iter().partition(|s| s.local.is_some());
    // From the user's own clones: offline, and no second download. `protocol.file` is allowed for this
    // one command, whose every source is a repository git made inside the user's `.git`.
    update_top_level(tree, &local, true)?;
    for s in &local {
        // As if cloned from its URL, so that its own relative submodule URLs resolve as they should.
        let inner = Git {
            root: tree.join(&s.path),
        };
        inner.output(&["config", "remote.origin.url", &s.url])?;
    }
    update_top_level(tree, &remote, false)?;
    for s in &submodules {
        let dir = tree.join(&s.path);
        if dir.join(".gitmodules").exists() {
            let nested = Git { root: dir };
            nested.output(&["submodule", "update", "--init", "--recursive", "--quiet"])?;
        }
    }
    Ok(())
}

/// `git submodule update --init -- PATHS` for `submodules`, each given its URL (the user's clone when
/// `from_local`) and `active` flag through the environment.
fn update_top_level(
    tree: &Path,
    submodules: &[&Submodule],
    from_local: bool,
) -> Result<(), MeasureError> {
    if submodules.is_empty() {
        return Ok(());
    }
    let mut settings = Vec::new();
    for s in submodules {
        let url = match (&s.local, from_local) {
            (Some(dir), true) => dir.to_string_lossy().into_owned(),
            _ => s.url.clone(),
        };
        settings.push((format!("submodule.{}.url", s.name), url));
        settings.push((format!("submodule.{}.active", s.name), "true".to_string()));
    }
    if from_local {
        settings.push(("protocol.file.allow".to_string(), "always".to_string()));
    }
    let mut command = Command::new("git");
    command
        .arg("-C")
        .arg(tree)
        .args(["submodule", "update", "--init", "--quiet", "--"])
        .args(submodules.iter().map(|s| s.path.as_str()))
        .env("GIT_LITERAL_PATHSPECS", "1");
    add_config(&mut command, &settings);
    checked(&mut command)
}

/// The user's own clone of submodule `name` (`$GIT_DIR/modules/NAME`, where `git submodule` keeps it),
/// when it holds the commit the worktree at `tree` records at `path`.
fn local_clone(git: &Git, tree: &Path, name: &str, path: &str) -> Option<PathBuf> {
    let modules = format!("modules/{name}");
    let dir = git
        .output(&[
            "rev-parse",
            "--path-format=absolute",
            "--git-path",
            &modules,
        ])
        .ok()
        .map(PathBuf::from)
        .filter(|d| d.is_dir())?;
    let inner = Git {
        root: tree.to_path_buf(),
    };
    let recorded = format!("HEAD:{path}");
    let commit = inner
        .output(&["rev-parse", "--verify", "--quiet", &recorded])
        .ok()?;
    let mut check = Command::new("git");
    check
        .arg("--git-dir")
        .arg(&dir)
        .args(["cat-file", "-e", &format!("{commit}^{{commit}}")]);
    let held = process::capture(&mut check).ok()?.status.success();
    held.then_some(dir)
}

/// Runs `command`, turning a failure into [`MeasureError::Git`] with its stderr.
fn checked(command: &mut Command) -> Result<(), MeasureError> {
    let out = process::capture(command)?;
    if !out.status.success() {
        return Err(MeasureError::Git {
            command: process::describe(command),
            stderr: out.stderr_text(),
        });
    }
    Ok(())
}

/// Gives `settings` to git through `GIT_CONFIG_COUNT`/`KEY_n`/`VALUE_n` (read by this git process and the
/// ones it starts, never written anywhere), after any the user's environment already holds. Unlike
/// `git -c`, a key may contain `=`, as a submodule's name may.
fn add_config(command: &mut Command, settings: &[(String, String)]) {
    let start = std::env::var("GIT_CONFIG_COUNT")
        .ok()
        .and_then(|n| n.trim().parse::<usize>().ok())
        .unwrap_or(0);
    for (i, (key, value)) in settings.iter().enumerate() {
        command
            .env(format!("GIT_CONFIG_KEY_{}", start + i), key)
            .env(format!("GIT_CONFIG_VALUE_{}", start + i), value);
    }
    command.env("GIT_CONFIG_COUNT", (start + settings.len()).to_string());
}

/// (name, path, url) of each submodule in `git config -z --get-regexp` output over `.gitmodules`
/// (entries `submodule.NAME.KEY\nVALUE\0`); one without a path or a url is skipped, as git could not
/// check it out either.
fn declarations(listing: &str) -> Vec<(String, String, String)> {
    let mut found: Vec<(String, Option<String>, Option<String>)> = Vec::new();
    for entry in listing.split('\0').filter(|e| !e.is_empty()) {
        let (key, value) = entry.split_once('\n').unwrap_or((entry, ""));
        let Some(rest) = key.strip_prefix("submodule.") else {
            continue;
        };
        let (name, field) = match (rest.strip_suffix(".path"), rest.strip_suffix(".url")) {
            (Some(name), _) => (name, 0),
            (None, Some(name)) => (name, 1),
            (None, None) => continue,
        };
        let index = match found.iter().position(|(n, _, _)| n == name) {
            Some(i) => i,
            None => {
                found.push((name.to_string(), None, None));
                found.len() - 1
            }
        };
        let slot = if field == 0 {
            &mut found[index].1
        } else {
            &mut found[index].2
        };
        *slot = Some(value.to_string());
    }
    found
        .into_iter()
        .filter_map(|(name, path, url)| Some((name, path?, url?)))
        .collect()
}

/// What a relative submodule URL is relative to, as git-submodule(1) says: the URL of the remote `origin`
/// (the default remote of a detached HEAD), else the repository's own directory. A remote given as a
/// relative path is taken from the repository's directory too.
fn remote_base(git: &Git) -> String {
    match git.output(&["config", "--get", "remote.origin.url"]) {
        Ok(url) if !url.is_empty() => {
            if url.starts_with("./") || url.starts_with("../") {
                git.root.join(url).to_string_lossy().into_owned()
            } else {
                url
            }
        }
        _ => git.root.to_string_lossy().into_owned(),
    }
}

/// `url` made absolute against `base` when it starts with `./` or `../`: each `../` takes one component
/// off `base` (a directory's last component, or a URL's at its last `/` or at the `:` of an scp-like
/// `host:path`), each `./` none. Any other URL is returned as it is.
fn resolve_url(base: &str, url: &str) -> String {
    if !(url.starts_with("./") || url.starts_with("../")) {
        return url.to_string();
    }
    let mut rest = url;
    let mut up = 0;
    loop {
        if let Some(r) = rest.strip_prefix("./") {
            rest = r;
        } else if let Some(r) = rest.strip_prefix("../") {
            rest = r;
            up += 1;
        } else {
            break;
        }
    }
    let rest = rest.trim_end_matches('/');
    let directory = Path::new(base);
    if directory.is_absolute() {
        let mut directory = directory.to_path_buf();
        for _ in 0..up {
            directory.pop();
        }
        return directory.join(rest).to_string_lossy().into_owned();
    }
    let mut base = base.trim_end_matches('/').to_string();
    let mut separator = Some('/');
    for _ in 0..up {
        match base.rfind(['/', ':']) {
            Some(i) => {
                separator = base[i..].chars().next();
                base.truncate(i);
            }
            None => {
                base.clear();
                separator = None;
            }
        }
    }
    match separator {
        Some(c) => format!("{base}{c}{rest}"),
        None => rest.to_string(),
    }
}

impl Drop for Worktree {
    fn drop(&mut self) {
        remove_worktree(&self.git, &self.path);
    }
}

/// Removes the worktree at `path`: git's registration and the directory, then prunes registrations whose
/// directory is gone. Best effort: a failure here must not hide the error that caused the unwinding (the
/// caller checks that the directory is gone when it must be).
pub(super) fn remove_worktree(git: &Git, path: &Path) {
    let text = path.to_string_lossy().into_owned();
    let _ = git.output_with(&["worktree", "remove", "--force", "--force", &text], false);
    if path.exists() {
        let _ = std::fs::remove_dir_all(path);
    }
    let _ = git.output_with(&["worktree", "prune"], false);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_urls_take_one_component_off_the_base_per_dot_dot() {
        assert_eq!(resolve_url("/home/me/app", "../lib"), "/home/me/lib");
        assert_eq!(resolve_url("/home/me/app/", "./lib"), "/home/me/app/lib");
        assert_eq!(resolve_url("/home/me/app", "../../x/lib"), "/home/x/lib");
        assert_eq!(resolve_url("/home/me/app", "./../lib/"), "/home/me/lib");
        assert_eq!(
            resolve_url("file:///srv/git/app", "../lib"),
            "file:///srv/git/lib"
        );
        assert_eq!(
            resolve_url("https://example.com/org/app.git", "../lib.git"),
            "https://example.com/org/lib.git"
        );
        assert_eq!(
            resolve_url("git@example.com:org/app.git", "../lib.git"),
            "git@example.com:org/lib.git"
        );
        assert_eq!(
            resolve_url("git@example.com:app.git", "../lib.git"),
            "git@example.com:lib.git"
        );
    }

    /// git itself is the oracle: `git submodule init` in a repository whose remote is `base` writes the URL
    /// it resolved into the config.
    #[test]
    fn relative_urls_resolve_as_git_submodule_init_resolves_them() {
        let repo = tempfile::tempdir().unwrap();
        let git = |args: &[&str]| {
            let out = Command::new("git")
                .arg("-C")
                .arg(repo.path())
                .args(args)
                .output()
                .unwrap();
            String::from_utf8_lossy(&out.stdout).trim().to_string()
        };
        git(&["init", "-q"]);
        let gitlink = "160000,1111111111111111111111111111111111111111,s";
        git(&["update-index", "--add", "--cacheinfo", gitlink]);
        let bases = [
            "git@example.com:org/app.git",
            "git@example.com:app.git",
            "https://example.com/org/app.git",
            "file:///srv/git/app",
            "/home/me/app",
            "/home/me/app/",
        ];
        for base in bases {
            for url in ["../lib.git", "./../lib/", "./lib", "../../x/lib"] {
                if base == "git@example.com:app.git" && url == "../../x/lib" {
                    continue; // more `../` than components: git writes `.:x/lib`, no URL either way
                }
                git(&["config", "remote.origin.url", base]);
                let gitmodules = format!("[submodule \"s\"]\n\tpath = s\n\turl = {url}\n");
                std::fs::write(repo.path().join(".gitmodules"), gitmodules).unwrap();
                git(&["config", "--unset", "submodule.s.url"]);
                git(&["submodule", "init", "-q"]);
                let expected = git(&["config", "submodule.s.url"]);
                assert!(!expected.is_empty(), "{base} {url}");
                assert_eq!(resolve_url(base, url), expected, "{base} + {url}");
            }
        }
    }

    #[test]
    fn absolute_urls_are_kept() {
        for url in ["https://example.com/lib.git", "/srv/lib", "git@h:lib"] {
            assert_eq!(resolve_url("/home/me/app", url), url);
        }
    }

    #[test]
    fn declarations_pair_path_and_url_by_name() {
        let listing = "submodule.vendor/a.path\nvendor/a\0submodule.vendor/a.url\n../a\0\
                       submodule.odd.name=x.url\nhttps://h/x\0submodule.odd.name=x.path\nx\0\
                       submodule.nourl.path\nn\0";
        assert_eq!(
            declarations(listing),
            vec![
                (
                    "vendor/a".to_string(),
                    "vendor/a".to_string(),
                    "../a".to_string()
                ),
                (
                    "odd.name=x".to_string(),
                    "x".to_string(),
                    "https://h/x".to_string()
                ),
            ]
        );
    }
}
