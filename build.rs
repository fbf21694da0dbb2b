//! Build script: embeds every file of `templates/` in the generator
//! (`render::templates::environment`), so a new template is a new file and
//! nothing else; the edge, built without the generator, embeds none.

fn main() {
    #[cfg(feature = "generate")]
    minijinja_embed::embed_templates!("templates");
}
