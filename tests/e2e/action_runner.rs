//! Runs the steps of the composite action in `action.yml` outside GitHub, as the runner would: inputs and
//! `github.*` values substituted into `${{ }}` expressions, `GITHUB_OUTPUT`, `GITHUB_STEP_SUMMARY` and
//! `GITHUB_PATH` pointing at temporary files, each `run:` step executed by `bash --noprofile --norc -eo
//! pipefail`, step outputs collected for later expressions, `if:` conditions honoured.
//!
//! `uses:` steps belong to GitHub: the cache is skipped, and `actions/upload-artifact` is simulated (the
//! file must exist; the step's outputs `artifact-id` and `artifact-url` are set as GitHub sets them, and
//! the upload is recorded). The expression language is the subset the
//! action uses: dotted context paths, `==`/`!=` against a quoted literal, `&&`, `always()`; anything else
//! fails the test so that the action cannot silently grow beyond what is tested.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use yaml_rust2::{Yaml, YamlLoader};

/// What a run of the action produced.
pub(crate) struct ActionRun {
    /// Exit status of the first failing step, else 0.
    pub status: i32,
    /// The job summary the steps appended to.
    pub summary: String,
    /// Outputs of the action (its `outputs:` evaluated at the end).
    pub outputs: BTreeMap<String, String>,
    /// Everything the steps printed, for annotations and failure messages.
    pub log: String,
    /// The artifacts uploaded: (name, path).
    pub uploads: Vec<(String, PathBuf)>,
}

/// The values of the `github`, `runner` and `inputs` contexts.
pub(crate) struct Contexts {
    pub inputs: BTreeMap<String, String>,
    pub github: BTreeMap<String, String>,
    pub runner_temp: PathBuf,
    /// Variables set for every step besides the runner's own (`HOME`, `CARGO_HOME`, ...).
    pub env: Vec<(String, String)>,
}

/// Runs every step of `action.yml` (at `action_dir`) in `workspace`.
pub(crate) fn run_action(action_dir: &Path, workspace: &Path, mut contexts: Contexts) -> ActionRun {
    let text = std::fs::read_to_string(action_dir.join("action.yml")).expect("action.yml");
    let doc = YamlLoader::load_from_str(&text)
        .expect("action.yml is YAML")
        .remove(0);
    for (name, spec) in doc["inputs"].as_hash().expect("inputs") {
        let name = name.as_str().expect("input name").to_string();
        let default = spec["default"].as_str().unwrap_or("").to_string();
        contexts.inputs.entry(name).or_insert(default);
    }
    contexts
        .github
        .insert("action_path".into(), action_dir.display().to_string());
    let files = GithubFiles::new(&contexts.runner_temp);
    let mut state = State {
        contexts,
        steps: BTreeMap::new(),
        status: 0,
        log: String::new(),
        uploads: Vec::new(),
    };
    for step in doc["runs"]["steps"].as_vec().expect("steps") {
        state.run_step(step, workspace, &files);
    }
    let mut outputs = BTreeMap::new();
    for (name, spec) in doc["outputs"].as_hash().expect("outputs") {
        let value = state.substitute(spec["value"].as_str().expect("output value"));
        outputs.insert(name.as_str().expect("output name").to_string(), value);
    }
    ActionRun {
        status: state.status,
        summary: std::fs::read_to_string(&files.summary).unwrap_or_default(),
        outputs,
        log: state.log,
        uploads: state.uploads,
    }
}

struct GithubFiles {
    output: PathBuf,
    summary: PathBuf,
    path: PathBuf,
}

impl GithubFiles {
    fn new(dir: &Path) -> GithubFiles {
        std::fs::create_dir_all(dir).expect("runner temp");
        let files = GithubFiles {
            output: dir.join("github_output"),
            summary: dir.join("github_step_summary"),
            path: dir.join("github_path"),
        };
        for f in [&files.output, &files.summary, &files.path] {
            std::fs::write(f, "").expect("github file");
        }
        files
    }
}

struct State {
    contexts: Contexts,
    steps: BTreeMap<String, BTreeMap<String, String>>,
    status: i32,
    log: String,
    uploads: Vec<(String, PathBuf)>,
}

impl State {
    fn run_step(&mut self, step: &Yaml, workspace: &Path, files: &GithubFiles) {
        let condition = step["if"].as_str().unwrap_or("success()");
        if !self.condition(condition) {
            return;
        }
        if let Some(uses) = step["uses"].as_str() {
            if uses.starts_with("actions/upload-artifact@") {
                self.upload(step, workspace);
            }
            return;
        }
        let script = self.substitute(step["run"].as_str().expect("a run step"));
        let dir = step["working-directory"]
            .as_str()
            .map(|d| workspace.join(self.substitute(d)))
            .unwrap_or_else(|| workspace.to_path_buf());
        let mut command = crate::environment::command("bash");
        command
            .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", &script])
            .current_dir(dir)
            .env("GITHUB_OUTPUT", &files.output)
            .env("GITHUB_STEP_SUMMARY", &files.summary)
            .env("GITHUB_PATH", &files.path)
            .env("RUNNER_TEMP", &self.contexts.runner_temp)
            .env("PATH", path_with(&files.path))
            .env("NO_COLOR", "1")
            .envs(self.contexts.env.iter().map(|(k, v)| (k, v)));
        if let Some(env) = step["env"].as_hash() {
            for (k, v) in env {
                let value = match v {
                    Yaml::String(s) => self.substitute(s),
                    other => format!("{other:?}"),
                };
                command.env(k.as_str().expect("env name"), value);
            }
        }
        std::fs::write(&files.output, "").expect("reset GITHUB_OUTPUT");
        let output = command.output().expect("bash runs");
        self.log.push_str(&String::from_utf8_lossy(&output.stdout));
        self.log.push_str(&String::from_utf8_lossy(&output.stderr));
        if let Some(id) = step["id"].as_str() {
            let text = std::fs::read_to_string(&files.output).unwrap_or_default();
            let outputs = text
                .lines()
                .filter_map(|l| l.split_once('='))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            self.steps.insert(id.to_string(), outputs);
        }
        if !output.status.success() && self.status == 0 {
            self.status = output.status.code().unwrap_or(-1);
        }
    }

    /// `actions/upload-artifact`: the file at `with.path` is uploaded as `with.name`; the address GitHub
    /// gives an artifact becomes the step's `artifact-url`.
    fn upload(&mut self, step: &Yaml, workspace: &Path) {
        let with = |key: &str| self.substitute(step["with"][key].as_str().unwrap_or(""));
        let (name, path) = (with("name"), workspace.join(with("path")));
        assert!(!name.is_empty(), "an artifact needs a name");
        if !path.is_file() {
            assert_eq!(
                with("if-no-files-found"),
                "ignore",
                "no file at {}",
                path.display()
            );
            return;
        }
        let url = format!(
            "https://github.com/{}/actions/runs/{}/artifacts/1",
            self.value("github.repository"),
            self.value("github.run_id")
        );
        if let Some(id) = step["id"].as_str() {
            let outputs = [("artifact-id", "1".to_string()), ("artifact-url", url)]
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect();
            self.steps.insert(id.to_string(), outputs);
        }
        self.uploads.push((name, path));
    }

    /// Evaluates an `if:` condition of the supported subset.
    fn condition(&self, condition: &str) -> bool {
        let condition = condition
            .trim()
            .trim_start_matches("${{")
            .trim_end_matches("}}");
        let mut always = false;
        let mut all = true;
        for term in condition.split("&&").map(str::trim) {
            let value = if term == "always()" {
                always = true;
                true
            } else if term == "success()" {
                self.status == 0
            } else if let Some((left, right)) = term.split_once("==") {
                self.value(left.trim()) == literal(right)
            } else if let Some((left, right)) = term.split_once("!=") {
                self.value(left.trim()) != literal(right)
            } else {
                panic!("unsupported condition term {term:?} in action.yml");
            };
            all &= value;
        }
        all && (always || self.status == 0)
    }

    /// Replaces every `${{ expr }}` in `text`.
    fn substitute(&self, text: &str) -> String {
        let mut out = String::new();
        let mut rest = text;
        while let Some(start) = rest.find("${{") {
            out.push_str(&rest[..start]);
            let end = rest[start..].find("}}").expect("closed expression") + start;
            out.push_str(&self.value(rest[start + 3..end].trim()));
            rest = &rest[end + 2..];
        }
        out.push_str(rest);
        out
    }

    /// The value of a context path (`inputs.x`, `github.a.b`, `runner.temp`, `steps.id.outputs.k`).
    fn value(&self, path: &str) -> String {
        let (root, rest) = path.split_once('.').unwrap_or((path, ""));
        match root {
            "inputs" => self.contexts.inputs.get(rest).cloned().unwrap_or_default(),
            "github" => self.contexts.github.get(rest).cloned().unwrap_or_default(),
            "runner" if rest == "temp" => self.contexts.runner_temp.display().to_string(),
            "runner" if rest == "os" => "Linux".into(),
            "steps" => {
                let (id, key) = rest.split_once(".outputs.").expect("steps.ID.outputs.KEY");
                self.steps
                    .get(id)
                    .and_then(|o| o.get(key))
                    .cloned()
                    .unwrap_or_default()
            }
            _ => panic!("unsupported expression {path:?} in action.yml"),
        }
    }
}

fn literal(text: &str) -> String {
    text.trim().trim_matches('\'').to_string()
}

/// PATH with the directories steps added through `GITHUB_PATH` in front, as the runner does.
fn path_with(github_path: &Path) -> String {
    let added = std::fs::read_to_string(github_path).unwrap_or_default();
    let mut parts: Vec<String> = added.lines().rev().map(str::to_string).collect();
    parts.push(std::env::var("PATH").unwrap_or_default());
    parts.join(":")
}
