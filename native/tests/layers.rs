//! The crate's modules import one way, in the layers of the Python engine, and no module
//! imports itself back through others: read from the `crate::` paths of every file under
//! `src/` (the twin of `tests/test_import_boundaries.py`).
//!
//! A module may use its own top module, or a top module of a lower layer; `notation` and
//! `rules` share a layer and never use each other; nothing uses the crate root (its
//! re-exports are for callers). `super::` is allowed only as `use super::*;` (an inline
//! test module reading its file).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// Each top module's layer, lowest first.
const LAYERS: [(&str, u8); 8] = [
    ("error", 0),
    ("vocabulary", 0),
    ("notation", 1),
    ("rules", 1),
    ("bridge", 2),
    ("engine", 2),
    ("adjudication", 3),
    ("py", 4),
];

/// The crate root (`lib.rs`): above everything.
const ROOT_LAYER: u8 = 5;

/// A module's path below the crate, as `["rules", "flow"]` (the root is empty).
type Module = Vec<String>;

fn layer(module: &Module) -> Option<u8> {
    let Some(top) = module.first() else {
        return Some(ROOT_LAYER);
    };
    LAYERS
        .iter()
        .find(|(name, _)| name == top)
        .map(|&(_, layer)| layer)
}

/// The module a file under `src/` holds.
fn module_of(relative: &Path) -> Module {
    let mut parts: Vec<String> = relative
        .with_extension("")
        .iter()
        .map(|part| part.to_string_lossy().into_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// The text without its comments (`//` to the end of the line, doc comments included).
fn code(text: &str) -> String {
    text.lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths a use tree names: `a::{b, c::{d as x, e}}` is `a::b`, `a::c::d`, `a::c::e`.
fn expand(tree: &str) -> Vec<String> {
    let mut words = tree.split_whitespace();
    let mut tree = String::new();
    while let Some(word) = words.next() {
        if word == "as" {
            // Drop the alias, keep what closes it.
            let alias = words.next().unwrap_or("");
            tree.push_str(&alias[alias.find([',', '}']).unwrap_or(alias.len())..]);
        } else {
            tree.push_str(word);
        }
    }
    let Some(open) = tree.find('{') else {
        return vec![tree];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.len() - 1];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (at, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|part| !part.is_empty())
        .flat_map(expand)
        .map(|path| format!("{prefix}{path}"))
        .collect()
}

/// Every `crate::` path a file's code names (use trees expanded), and every use of
/// `super::` other than `use super::*;`.
fn references(text: &str) -> (Vec<Vec<String>>, Vec<String>) {
    let code = code(text);
    let mut paths = Vec::new();
    let mut rest = String::new();
    let mut tail = code.as_str();
    while let Some(at) = tail.find("use crate::") {
        rest.push_str(&tail[..at]);
        let end = at + tail[at..].find(';').expect("a use statement ends with ';'");
        paths.extend(expand(&tail[at + "use crate::".len()..end]));
        tail = &tail[end + 1..];
    }
    rest.push_str(tail);
    let mut inline = rest.as_str();
    while let Some(at) = inline.find("crate::") {
        let path: String = inline[at + "crate::".len()..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        paths.push(path.trim_end_matches(':').to_owned());
        inline = &inline[at + "crate::".len()..];
    }
    let without_globs = rest.replace("use super::*;", "");
    let supers = without_globs
        .match_indices("super::")
        .map(|(at, _)| {
            let path = without_globs[at + "super::".len()..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':' || *c == '*');
            format!("super::{}", path.collect::<String>())
        })
        .collect();
    let paths = paths
        .iter()
        .map(|path| path.split("::").map(str::to_owned).collect())
        .collect();
    (paths, supers)
}

/// The longest module that `path` starts with (the root when none).
fn resolve(path: &[String], modules: &BTreeSet<Module>) -> Module {
    (0..=path.len())
        .rev()
        .map(|length| path[..length].to_vec())
        .find(|prefix| modules.contains(prefix))
        .unwrap_or_default()
}

fn name(module: &Module) -> String {
    if module.is_empty() {
        "crate".to_owned()
    } else {
        module.join("::")
    }
}

/// What breaks the layers among `files` (module path, source): each use of a module it may
/// not use, each `super::` path, each import cycle.
fn violations(files: &[(Module, String)]) -> Vec<String> {
    let modules: BTreeSet<Module> = files.iter().map(|(module, _)| module.clone()).collect();
    let mut found = Vec::new();
    let mut graph: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (module, text) in files {
        let Some(own) = layer(module) else {
            found.push(format!("{} is in no layer", name(module)));
            continue;
        };
        let (paths, supers) = references(text);
        for path in supers {
            found.push(format!("{} uses {path}", name(module)));
        }
        let used = graph.entry(module.clone()).or_default();
        for path in paths {
            let target = resolve(&path, &modules);
            if &target == module {
                continue;
            }
            let same_top = !module.is_empty() && target.first() == module.first();
            let lower = layer(&target).is_some_and(|theirs| theirs < own);
            if !(same_top || lower) {
                found.push(format!("{} uses {}", name(module), name(&target)));
            }
            used.insert(target);
        }
    }
    found.extend(cycles(&graph));
    found
}

/// One line per import cycle found (as `a -> b -> a`).
fn cycles(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<String> {
    fn visit(
        module: &Module,
        graph: &BTreeMap<Module, BTreeSet<Module>>,
        path: &mut Vec<Module>,
        done: &mut BTreeSet<Module>,
        found: &mut Vec<String>,
    ) {
        if let Some(at) = path.iter().position(|m| m == module) {
            let cycle: Vec<String> = path[at..].iter().chain([module]).map(name).collect();
            found.push(format!("import cycle: {}", cycle.join(" -> ")));
            return;
        }
        if !done.insert(module.clone()) {
            return;
        }
        path.push(module.clone());
        for next in graph.get(module).into_iter().flatten() {
            visit(next, graph, path, done, found);
        }
        path.pop();
    }
    let mut found = Vec::new();
    let mut done = BTreeSet::new();
    for module in graph.keys() {
        visit(module, graph, &mut Vec::new(), &mut done, &mut found);
    }
    found
}

fn sources(dir: &Path, root: &Path, out: &mut Vec<(Module, String)>) {
    for entry in fs::read_dir(dir).expect("read src") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            sources(&path, root, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            let relative = path.strip_prefix(root).expect("under src");
            out.push((
                module_of(relative),
                fs::read_to_string(&path).expect("read"),
            ));
        }
    }
}

#[test]
fn the_crates_modules_import_only_lower_layers_and_never_in_a_circle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &root, &mut files);
    let tops: BTreeSet<&str> = files
        .iter()
        .filter_map(|(module, _)| module.first().map(String::as_str))
        .collect();
    assert_eq!(
        tops,
        LAYERS.iter().map(|(top, _)| *top).collect(),
        "every top module has a layer"
    );
    assert!(files.len() > 20, "the sources are read");
    assert_eq!(violations(&files), Vec::<String>::new());
}

fn module(path: &str) -> Module {
    path.split("::")
        .filter(|part| !part.is_empty())
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_check_finds_a_use_upwards_a_use_sideways_a_cycle_and_super() {
    let files = vec![
        (module("lib"), String::new()),
        (module("rules::a"), "use crate::rules::b::X;\n".to_owned()),
        (
            module("rules::b"),
            "use crate::{vocabulary::Side, rules::{a::Y, c}};\nfn f() { crate::py::g() }"
                .to_owned(),
        ),
        (
            module("rules::c"),
            "mod tests {\n    use super::*;\n}\nuse super::a::Z;\n".to_owned(),
        ),
        (module("notation"), "use crate::rules::a; // x\n".to_owned()),
        (
            module("vocabulary"),
            "// crate::rules in a comment\n".to_owned(),
        ),
        (module("py"), "use crate::Error;\n".to_owned()),
    ];
    let files: Vec<(Module, String)> = files
        .into_iter()
        .map(|(module, text)| (if module == ["lib"] { vec![] } else { module }, text))
        .collect();
    assert_eq!(
        violations(&files),
        vec![
            "rules::b uses py",
            "rules::c uses super::a::Z",
            "notation uses rules::a",
            "py uses crate",
            "import cycle: rules::a -> rules::b -> rules::a",
        ]
    );
}

#[test]
fn use_trees_expand_to_every_path() {
    assert_eq!(expand("a::{b as c, d}"), vec!["a::b", "a::d"]);
    assert_eq!(
        expand("rules::{board::{Board, Dice}, cube::Cube, self}"),
        vec![
            "rules::board::Board",
            "rules::board::Dice",
            "rules::cube::Cube",
            "rules::self"
        ]
    );
    assert_eq!(
        module_of(Path::new("rules/mod.rs")),
        module("rules"),
        "a mod.rs is its folder's module"
    );
}
