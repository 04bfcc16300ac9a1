//! The layers of referee import downwards only.
//!
//! This test reads the sources of both crates (`src/` and
//! `reference/src/`) the way the compiler finds them: from each crate's
//! root through its `mod` declarations, one file per module. It collects
//! every path a file names (`use` trees, and paths in code that start with
//! `crate`, `super`, `self`, a child module or `referee`), resolves each to
//! the file of the module it names, and fails on any cycle: between files,
//! and between the top-level modules of a crate. Unit tests
//! (`#[cfg(test)]`) are left out: they may use anything.
//!
//! It also holds the two rules a cycle check alone cannot: the sandbox
//! imports nothing else of referee, and presentation (`explain`, `export`,
//! the command line) sits above grading, never below it.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// A module: its path from the crate root and the file that holds it.
#[derive(Clone, Debug)]
struct Module {
    path: Vec<String>,
    file: PathBuf,
}

/// One crate's modules and the paths each file names.
#[derive(Default)]
struct Graph {
    /// Module path (joined with `::`, the root being the crate's name) to
    /// its file.
    modules: BTreeMap<String, PathBuf>,
    /// Per module, the names its `use` items bind and the paths they
    /// stand for: `super::Event` named in a child is the item `game.rs`
    /// re-exports, so the child depends on the file that defines it.
    bindings: BTreeMap<String, BTreeMap<String, Vec<String>>>,
    /// File to the files it names.
    edges: BTreeMap<PathBuf, BTreeSet<PathBuf>>,
}

fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<syn::Meta>()
                .is_ok_and(|m| m.path().is_ident("test"))
    })
}

/// The file of `mod name;` declared in `file`.
fn child_file(file: &Path, name: &str) -> PathBuf {
    let dir = match file.file_name().and_then(|n| n.to_str()) {
        Some("lib.rs" | "main.rs" | "mod.rs") => file.parent().unwrap().to_path_buf(),
        _ => file.with_extension(""),
    };
    let flat = dir.join(format!("{name}.rs"));
    if flat.exists() {
        flat
    } else {
        dir.join(name).join("mod.rs")
    }
}

/// Every module of a crate, from its root file.
fn modules(root: &Path, crate_name: &str) -> Vec<(Module, syn::File)> {
    let mut found = Vec::new();
    let mut todo = vec![Module {
        path: vec![crate_name.to_string()],
        file: root.to_path_buf(),
    }];
    while let Some(module) = todo.pop() {
        let text = fs::read_to_string(&module.file)
            .unwrap_or_else(|e| panic!("{}: {e}", module.file.display()));
        let parsed =
            syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", module.file.display()));
        declared(&parsed.items, &module, &mut todo);
        found.push((module, parsed));
    }
    found
}

/// The file modules declared in `items` (inline ones are searched too).
fn declared(items: &[syn::Item], module: &Module, todo: &mut Vec<Module>) {
    for item in items {
        let syn::Item::Mod(m) = item else { continue };
        if is_test(&m.attrs) {
            continue;
        }
        let mut path = module.path.clone();
        path.push(m.ident.to_string());
        match &m.content {
            None => todo.push(Module {
                file: child_file(&module.file, &m.ident.to_string()),
                path,
            }),
            Some((_, inner)) => declared(
                inner,
                &Module {
                    path,
                    ..module.clone()
                },
                todo,
            ),
        }
    }
}

/// Collects the paths named in one file, each made absolute.
struct Names<'g> {
    /// The module the code being read is in.
    at: Vec<String>,
    /// The crate's modules, by path.
    modules: &'g BTreeMap<String, PathBuf>,
    /// The names of the crates of this project, which a path may start
    /// with (`referee::` in the binary, `reference::`).
    crates: &'g [&'g str],
    /// Every path named, absolute.
    found: Vec<Vec<String>>,
    /// What each `use` binds: the module it is in, the name, the path.
    uses: Vec<(String, String, Vec<String>)>,
}

impl Names<'_> {
    fn is_module(&self, path: &[String]) -> bool {
        self.modules.contains_key(&path.join("::"))
    }

    /// `segments` made absolute, when they start at a module.
    fn absolute(&self, segments: &[String]) -> Option<Vec<String>> {
        let (first, rest) = segments.split_first()?;
        let start = match first.as_str() {
            "crate" => vec![self.at[0].clone()],
            "self" => self.at.clone(),
            "super" => {
                let mut up = self.at.clone();
                up.pop();
                return self.relative(up, rest);
            }
            name if self.crates.contains(&name) => vec![name.to_string()],
            name => {
                let child = [self.at.clone(), vec![name.to_string()]].concat();
                if self.is_module(&child) {
                    child
                } else {
                    // A name a `use` of this module bound (`use
                    // crate::explain;` then `explain::found::x()`): the path
                    // goes on from what it stands for.
                    let at = self.at.join("::");
                    self.uses
                        .iter()
                        .rev()
                        .find(|(module, bound, _)| *module == at && bound == name)?
                        .2
                        .clone()
                }
            }
        };
        Some([start, rest.to_vec()].concat())
    }

    /// `rest` from module `at`, going up once per leading `super`.
    fn relative(&self, mut at: Vec<String>, mut rest: &[String]) -> Option<Vec<String>> {
        while rest.first().is_some_and(|s| s == "super") {
            at.pop();
            rest = &rest[1..];
        }
        Some([at, rest.to_vec()].concat())
    }

    fn name(&mut self, segments: &[String]) {
        if let Some(path) = self.absolute(segments) {
            self.found.push(path);
        }
    }

    /// A `use` of `prefix` binding `bound`.
    fn bind(&mut self, prefix: &[String], bound: String) {
        if let Some(path) = self.absolute(prefix) {
            self.uses.push((self.at.join("::"), bound, path.clone()));
            self.found.push(path);
        }
    }

    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) if n.ident == "self" => {
                let bound = prefix.last().cloned().unwrap_or_default();
                self.bind(prefix, bound);
            }
            syn::UseTree::Name(n) => {
                prefix.push(n.ident.to_string());
                self.bind(prefix, n.ident.to_string());
                prefix.pop();
            }
            syn::UseTree::Rename(r) => {
                prefix.push(r.ident.to_string());
                self.bind(prefix, r.rename.to_string());
                prefix.pop();
            }
            syn::UseTree::Glob(_) => self.name(prefix),
            syn::UseTree::Group(g) => {
                for tree in &g.items {
                    self.use_tree(prefix, tree);
                }
            }
        }
    }
}

impl<'ast> Visit<'ast> for Names<'_> {
    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        if !is_test(&item.attrs) {
            self.use_tree(&mut Vec::new(), &item.tree);
        }
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        if is_test(&item.attrs) {
            return;
        }
        self.at.push(item.ident.to_string());
        syn::visit::visit_item_mod(self, item);
        self.at.pop();
    }

    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        if !is_test(&item.attrs) {
            syn::visit::visit_item_fn(self, item);
        }
    }

    fn visit_item_impl(&mut self, item: &'ast syn::ItemImpl) {
        if !is_test(&item.attrs) {
            syn::visit::visit_item_impl(self, item);
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if segments.len() > 1 {
            self.name(&segments);
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        // Paths inside macro calls (`format!("{}", crate::x::y())`) are
        // read as expressions where they parse as such.
        if let Ok(args) = mac.parse_body_with(
            syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated,
        ) {
            for expr in &args {
                self.visit_expr(expr);
            }
        }
        syn::visit::visit_macro(self, mac);
    }
}

impl Graph {
    /// The deepest module `path` names, as its length.
    fn module_len(&self, path: &[String]) -> Option<usize> {
        (1..=path.len())
            .rev()
            .find(|n| self.modules.contains_key(&path[..*n].join("::")))
    }

    /// The file that defines what `path` names: through the `use` items
    /// that bind it on the way (re-exports), to the module it is in.
    fn file_of(&self, path: &[String]) -> Option<&PathBuf> {
        let mut path = path.to_vec();
        for _ in 0..32 {
            let n = self.module_len(&path)?;
            let module = path[..n].join("::");
            let target = path
                .get(n)
                .and_then(|name| self.bindings.get(&module)?.get(name));
            match target {
                Some(target) if *target != path[..=n] => {
                    path = [target.clone(), path[n + 1..].to_vec()].concat();
                }
                _ => break,
            }
        }
        self.modules
            .get(&path[..self.module_len(&path)?].join("::"))
    }
}

/// The import graph of the crates rooted at `roots` (name, root file);
/// paths into another of them (the binary's `referee::`) are resolved
/// too.
fn graph(roots: &[(&str, PathBuf)]) -> Graph {
    let mut graph = Graph::default();
    let mut parsed = Vec::new();
    for (name, root) in roots {
        for (module, file) in modules(root, name) {
            graph
                .modules
                .insert(module.path.join("::"), module.file.clone());
            parsed.push((module, file));
        }
    }
    let crates: Vec<&str> = roots.iter().map(|(n, _)| *n).collect();
    let mut named = Vec::new();
    for (module, file) in &parsed {
        let mut names = Names {
            at: module.path.clone(),
            modules: &graph.modules,
            crates: &crates,
            found: Vec::new(),
            uses: Vec::new(),
        };
        names.visit_file(file);
        for (at, bound, path) in names.uses {
            graph.bindings.entry(at).or_default().insert(bound, path);
        }
        named.push((module.file.clone(), names.found));
    }
    for (file, found) in named {
        let targets: BTreeSet<PathBuf> = found
            .iter()
            .filter_map(|path| graph.file_of(path))
            .filter(|target| **target != file)
            .cloned()
            .collect();
        graph.edges.entry(file).or_default().extend(targets);
    }
    graph
}

/// The strongly connected parts of a graph with more than one node
/// (Tarjan's algorithm): each is a cycle, or several.
fn cycles<N: Ord + Clone>(edges: &BTreeMap<N, BTreeSet<N>>) -> Vec<Vec<N>> {
    struct State<N> {
        index: BTreeMap<N, usize>,
        low: BTreeMap<N, usize>,
        stack: Vec<N>,
        on_stack: BTreeSet<N>,
        found: Vec<Vec<N>>,
    }
    fn connect<N: Ord + Clone>(node: &N, edges: &BTreeMap<N, BTreeSet<N>>, s: &mut State<N>) {
        let i = s.index.len();
        s.index.insert(node.clone(), i);
        s.low.insert(node.clone(), i);
        s.stack.push(node.clone());
        s.on_stack.insert(node.clone());
        for next in edges.get(node).into_iter().flatten() {
            if !s.index.contains_key(next) {
                connect(next, edges, s);
                let low = s.low[node].min(s.low[next]);
                s.low.insert(node.clone(), low);
            } else if s.on_stack.contains(next) {
                let low = s.low[node].min(s.index[next]);
                s.low.insert(node.clone(), low);
            }
        }
        if s.low[node] == s.index[node] {
            let mut part = Vec::new();
            while let Some(top) = s.stack.pop() {
                s.on_stack.remove(&top);
                let done = top == *node;
                part.push(top);
                if done {
                    break;
                }
            }
            if part.len() > 1 {
                part.sort();
                s.found.push(part);
            }
        }
    }
    let mut state = State {
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for node in edges.keys() {
        if !state.index.contains_key(node) {
            connect(node, edges, &mut state);
        }
    }
    state.found
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn project() -> Graph {
    let root = root();
    graph(&[
        ("referee", root.join("src/lib.rs")),
        ("referee_bin", root.join("src/main.rs")),
        ("reference", root.join("reference/src/lib.rs")),
    ])
}

fn short(file: &Path) -> String {
    file.strip_prefix(root())
        .unwrap_or(file)
        .display()
        .to_string()
}

/// The top-level module a file belongs to: `src/export/html.rs` is
/// `export`; the binary's files are `main`, `reference`'s `reference/…`.
fn top_level(file: &Path) -> String {
    let relative = short(file);
    let parts: Vec<&str> = relative.split('/').collect();
    let (crate_dir, rest) = match parts.as_slice() {
        ["reference", "src", rest @ ..] => ("reference/", rest),
        ["src", rest @ ..] => ("", rest),
        _ => ("", &parts[..]),
    };
    let first = rest.first().copied().unwrap_or_default();
    format!("{crate_dir}{}", first.trim_end_matches(".rs"))
}

/// The top-level modules each top-level module imports.
fn top_level_edges(graph: &Graph) -> BTreeMap<String, BTreeSet<String>> {
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, targets) in &graph.edges {
        let from = top_level(from);
        for target in targets {
            let target = top_level(target);
            // The crate roots only declare modules and re-export.
            if target != from && !matches!(target.as_str(), "lib" | "reference/lib") {
                edges.entry(from.clone()).or_default().insert(target);
            }
        }
    }
    edges
}

/// Each cycle, and the imports inside it that make it: `a -> b` for
/// every edge between two of its members, so that the message says which
/// import to move.
fn describe<N: Ord>(
    found: &[Vec<N>],
    edges: &BTreeMap<N, BTreeSet<N>>,
    show: impl Fn(&N) -> String,
) -> String {
    found
        .iter()
        .map(|part| {
            let names: Vec<String> = part.iter().map(&show).collect();
            let inside: Vec<String> = part
                .iter()
                .flat_map(|from| {
                    let show = &show;
                    edges
                        .get(from)
                        .into_iter()
                        .flatten()
                        .filter(|to| part.contains(to))
                        .map(move |to| format!("    {} -> {}", show(from), show(to)))
                })
                .collect();
            format!("  {}\n{}", names.join(" <-> "), inside.join("\n"))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A file's module as the folders and file name it is at, from the
/// repository's root: `src/sandbox/cgroup/v1.rs` is `src sandbox cgroup
/// v1`, `src/sandbox/cgroup/mod.rs` `src sandbox cgroup`, `src/lib.rs`
/// `src`.
fn module_parts(file: &Path) -> Vec<String> {
    let relative = short(file);
    let mut parts: Vec<String> = relative.split('/').map(str::to_string).collect();
    if matches!(parts.last().map(String::as_str), Some("mod.rs" | "lib.rs")) {
        parts.pop();
    } else if let Some(last) = parts.last_mut() {
        *last = last.trim_end_matches(".rs").to_string();
    }
    parts
}

/// Inside each module, which of its children imports which: a file of
/// `sandbox/cgroup/` naming one of `sandbox/allocation.rs` is `cgroup ->
/// allocation` inside `src/sandbox`. A child's importing its own parent
/// (`super::Thing`), or a parent its child, is no edge between children.
fn child_edges(graph: &Graph) -> BTreeMap<String, BTreeMap<String, BTreeSet<String>>> {
    let mut inside: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (from, targets) in &graph.edges {
        let from = module_parts(from);
        for target in targets {
            let to = module_parts(target);
            let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
            if common < from.len() && common < to.len() {
                inside
                    .entry(from[..common].join("/"))
                    .or_default()
                    .entry(from[common].clone())
                    .or_default()
                    .insert(to[common].clone());
            }
        }
    }
    inside
}

/// The cycles between the children of any one module, by module.
fn cycles_inside(
    inside: &BTreeMap<String, BTreeMap<String, BTreeSet<String>>>,
) -> Vec<(String, String)> {
    inside
        .iter()
        .filter_map(|(module, edges)| {
            let found = cycles(edges);
            (!found.is_empty()).then(|| {
                let text = describe(&found, edges, |child| format!("{module}/{child}"));
                (module.clone(), text)
            })
        })
        .collect()
}

#[test]
fn no_module_has_children_that_import_each_other() {
    let found = cycles_inside(&child_edges(&project()));
    assert!(
        found.is_empty(),
        "inside a module, children that import each other, directly or around a cycle (move \
         what they share to a leaf file both import):\n{}",
        found
            .iter()
            .map(|(_, text)| text.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn a_circle_inside_a_module_is_found() {
    // The circle sandbox/ once held: allocation.rs named cgroup's files,
    // and cgroup/v1.rs named allocation.rs. No two files import each
    // other, so only the check between a module's children finds it.
    let file = |f: &str| root().join(f);
    let mut graph = Graph::default();
    let edges = [
        ("src/sandbox/allocation.rs", "src/sandbox/cgroup/files.rs"),
        ("src/sandbox/cgroup/v1.rs", "src/sandbox/allocation.rs"),
        ("src/sandbox/cgroup/v1.rs", "src/sandbox/cgroup/files.rs"),
        ("src/sandbox/cgroup/mod.rs", "src/sandbox/cgroup/v1.rs"),
        ("src/sandbox/cgroup/v1.rs", "src/sandbox/mod.rs"),
    ];
    for (from, to) in edges {
        graph.edges.entry(file(from)).or_default().insert(file(to));
    }
    assert!(cycles(&graph.edges).is_empty(), "no cycle between files");
    let found = cycles_inside(&child_edges(&graph));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "src/sandbox");
    assert!(
        found[0]
            .1
            .contains("src/sandbox/allocation <-> src/sandbox/cgroup"),
        "{}",
        found[0].1
    );
    // Without the edge back, no circle.
    graph
        .edges
        .get_mut(&file("src/sandbox/cgroup/v1.rs"))
        .unwrap()
        .remove(&file("src/sandbox/allocation.rs"));
    assert!(cycles_inside(&child_edges(&graph)).is_empty());
}

/// Finds `Result<_, String>` in a file's code: an error that is only
/// text says neither which kind it is nor who must act (see
/// ARCHITECTURE's "Errors"). Unit tests are left out, and so are the
/// functions named in `exempt` (the command line's clap value parsers,
/// whose errors clap itself prints).
struct StringErrors<'e> {
    /// The item being read (`whole_result`, `Syntax`), for the message.
    at: Vec<String>,
    exempt: &'e BTreeSet<String>,
    found: Vec<String>,
}

impl StringErrors<'_> {
    /// Reads `item`, named `name`, with `visit`, unless it is a unit
    /// test or exempt.
    fn within<'ast, T>(
        &mut self,
        name: String,
        attrs: &[syn::Attribute],
        item: &'ast T,
        visit: fn(&mut Self, &'ast T),
    ) {
        if is_test(attrs) || self.exempt.contains(&name) {
            return;
        }
        self.at.push(name);
        visit(self, item);
        self.at.pop();
    }
}

/// Whether `ty` is `String` (or `std::string::String`).
fn is_string(ty: &syn::Type) -> bool {
    matches!(ty, syn::Type::Path(p) if p.qself.is_none()
        && p.path.segments.last().is_some_and(|s| s.ident == "String" && s.arguments.is_none()))
}

impl<'ast> Visit<'ast> for StringErrors<'_> {
    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        self.within(
            item.ident.to_string(),
            &item.attrs,
            item,
            syn::visit::visit_item_mod,
        );
    }

    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        self.within(
            item.sig.ident.to_string(),
            &item.attrs,
            item,
            syn::visit::visit_item_fn,
        );
    }

    fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
        self.within(
            item.sig.ident.to_string(),
            &item.attrs,
            item,
            syn::visit::visit_impl_item_fn,
        );
    }

    fn visit_item_impl(&mut self, item: &'ast syn::ItemImpl) {
        self.within(
            "impl".into(),
            &item.attrs,
            item,
            syn::visit::visit_item_impl,
        );
    }

    fn visit_item_struct(&mut self, item: &'ast syn::ItemStruct) {
        self.within(
            item.ident.to_string(),
            &item.attrs,
            item,
            syn::visit::visit_item_struct,
        );
    }

    fn visit_item_enum(&mut self, item: &'ast syn::ItemEnum) {
        self.within(
            item.ident.to_string(),
            &item.attrs,
            item,
            syn::visit::visit_item_enum,
        );
    }

    fn visit_item_type(&mut self, item: &'ast syn::ItemType) {
        self.within(
            item.ident.to_string(),
            &item.attrs,
            item,
            syn::visit::visit_item_type,
        );
    }

    fn visit_type_path(&mut self, ty: &'ast syn::TypePath) {
        let last = ty.path.segments.last();
        if let Some(syn::PathArguments::AngleBracketed(args)) =
            last.filter(|s| s.ident == "Result").map(|s| &s.arguments)
        {
            let types: Vec<&syn::Type> = args
                .args
                .iter()
                .filter_map(|a| match a {
                    syn::GenericArgument::Type(t) => Some(t),
                    _ => None,
                })
                .collect();
            if types.len() == 2 && is_string(types[1]) {
                self.found.push(self.at.join("::"));
            }
        }
        syn::visit::visit_type_path(self, ty);
    }
}

/// Where `file` holds a `Result<_, String>` outside unit tests and
/// `exempt` functions: the items it is in.
fn string_errors(file: &syn::File, exempt: &BTreeSet<String>) -> Vec<String> {
    let mut errors = StringErrors {
        at: Vec::new(),
        exempt,
        found: Vec::new(),
    };
    errors.visit_file(file);
    errors.found
}

/// The functions the command line names as clap value parsers
/// (`value_parser = at_least_one`).
fn value_parsers(cli: &str) -> BTreeSet<String> {
    cli.split("value_parser = ")
        .skip(1)
        .filter_map(|rest| {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            (!name.is_empty()).then_some(name)
        })
        .collect()
}

#[test]
fn errors_are_typed_not_strings() {
    let root = root();
    let cli = fs::read_to_string(root.join("src/cli.rs")).unwrap();
    let parsers = value_parsers(&cli);
    assert!(parsers.contains("at_least_one"), "{parsers:?}");
    let none = BTreeSet::new();
    let mut found = Vec::new();
    for (name, crate_root) in [
        ("referee", root.join("src/lib.rs")),
        ("referee_bin", root.join("src/main.rs")),
    ] {
        for (module, parsed) in modules(&crate_root, name) {
            let exempt = if module.file.ends_with("src/cli.rs") {
                &parsers
            } else {
                &none
            };
            for item in string_errors(&parsed, exempt) {
                found.push(format!("{}: {item}", short(&module.file)));
            }
        }
    }
    assert!(
        found.is_empty(),
        "Result<_, String> outside unit tests: give each a thiserror enum whose messages say \
         which file or line and what to do (ARCHITECTURE.md, \"Errors\"):\n  {}",
        found.join("\n  ")
    );
}

#[test]
fn a_string_error_is_found_wherever_it_is() {
    let code: syn::File = syn::parse_quote! {
        pub fn whole_result() -> Result<u8, String> { todo!() }
        type Cell = std::sync::OnceLock<std::result::Result<u8, std::string::String>>;
        struct Syntax { verdict: Mutex<Option<Result<(), String>>> }
        impl Generator { fn lines(&self) -> Result<Vec<String>, String> { todo!() } }
        fn typed() -> Result<String, Error> { todo!() }
        fn at_least_one(text: &str) -> Result<usize, String> { todo!() }
        #[cfg(test)]
        mod tests { fn helper() -> Result<(), String> { Ok(()) } }
    };
    let exempt = BTreeSet::from(["at_least_one".to_string()]);
    assert_eq!(
        string_errors(&code, &exempt),
        ["whole_result", "Cell", "Syntax", "impl::lines"]
    );
}

#[test]
fn no_file_imports_a_file_that_imports_it_back() {
    let graph = project();
    let found = cycles(&graph.edges);
    assert!(
        found.is_empty(),
        "files that import each other, directly or around a cycle:\n{}",
        describe(&found, &graph.edges, |f| short(f))
    );
}

#[test]
fn no_top_level_module_imports_one_that_imports_it_back() {
    let edges = top_level_edges(&project());
    let found = cycles(&edges);
    assert!(
        found.is_empty(),
        "top-level modules that import each other, directly or around a cycle:\n{}",
        describe(&found, &edges, String::clone)
    );
}

#[test]
fn the_sandbox_imports_nothing_else_of_referee() {
    let edges = top_level_edges(&project());
    let used = edges.get("sandbox").cloned().unwrap_or_default();
    assert!(used.is_empty(), "the sandbox imports {used:?}");
}

#[test]
fn presentation_sits_above_grading() {
    let edges = top_level_edges(&project());
    let presentation = ["explain", "export", "main", "cli", "commands"];
    for (from, targets) in &edges {
        if presentation.contains(&from.as_str()) {
            continue;
        }
        let wrong: Vec<&String> = targets
            .iter()
            .filter(|t| presentation.contains(&t.as_str()))
            .collect();
        assert!(
            wrong.is_empty(),
            "{from} is below presentation, yet imports {wrong:?}"
        );
    }
}

#[test]
fn the_check_sees_imports_of_every_kind() {
    // The check is only as good as its reading: these imports are known
    // to exist and must be found, whatever form they take.
    let graph = project();
    let edges = top_level_edges(&graph);
    let imports = |from: &str, to: &str| edges.get(from).is_some_and(|t| t.contains(to));
    // `use crate::case::...` in grading.rs.
    assert!(imports("grading", "case"), "{edges:?}");
    // `use crate::transcript;` then `transcript::excerpt(..)` in
    // results.rs: through the name the `use` bound, and the re-export in
    // transcript/mod.rs, to the file that defines it.
    let file = |f: &str| root().join(f);
    assert!(
        graph.edges[&file("src/results.rs")].contains(&file("src/transcript/excerpt.rs")),
        "{:?}",
        graph.edges[&file("src/results.rs")]
    );
    // The binary reaches the library through `referee::`.
    assert!(
        edges.get("main").is_some_and(|t| !t.is_empty()),
        "{edges:?}"
    );
    // A cycle made on purpose is found.
    let mut looped = graph.edges.clone();
    let (a, b) = (PathBuf::from("a.rs"), PathBuf::from("b.rs"));
    looped.entry(a.clone()).or_default().insert(b.clone());
    looped.entry(b.clone()).or_default().insert(a.clone());
    assert!(cycles(&looped)
        .iter()
        .any(|c| c == &vec![a.clone(), b.clone()]));
}
