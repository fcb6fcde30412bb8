#!/bin/sh
# Extracts the public documentation sites `npm run bench:migrate` measures into scratch/real-sites/
# (git-ignored: their text is their authors', under the licence kept beside it). Only the docs' text,
# images, the config files that give navigation, and the licence are kept.
# Usage: scripts/bench-migrate-sites.sh [MIRROR_ROOT]
#   MIRROR_ROOT holds one git clone (bare or not) per site, named owner+name/repo (default /work/.mirror);
#   a clone of https://github.com/OWNER/NAME works too: each site is read at the commit named below.
set -eu
MIRRORS=${1:-/work/.mirror}
OUT=$(dirname "$0")/../scratch/real-sites
KEEP='\.(md|mdx|png|jpe?g|gif|svg|webp|avif)$|(^|/)(docusaurus\.config\.[jt]s|sidebars\.[jt]s|mkdocs\.ya?ml|astro\.config\.m?[jt]s|LICEN[CS]E(\.md|\.txt)?)$'

# site-folder  owner+name  commit  paths…
extract() {
  name=$1 repo=$2 commit=$3
  shift 3
  git_dir="$MIRRORS/$repo/repo"
  [ -d "$git_dir" ] || git_dir="$MIRRORS/$repo"
  rm -rf "$OUT/$name"
  mkdir -p "$OUT/$name"
  # File by file: a mirror may lack its largest blobs; those are counted, not fatal.
  git -C "$git_dir" ls-tree -r --name-only "$commit" -- "$@" | grep -E "$KEEP" | while IFS= read -r path; do
    mkdir -p "$OUT/$name/$(dirname "$path")"
    git -C "$git_dir" cat-file blob "$commit:$path" > "$OUT/$name/$path" 2>/dev/null || {
      # A stand-in keeps the figures about the migrator, not about the mirror.
      case "$path" in
        *.gif) printf 'GIF89a\001\000\001\000\200\000\000\000\000\000\377\377\377!\371\004\001\000\000\000\000,\000\000\000\000\001\000\001\000\000\002\002D\001\000;' > "$OUT/$name/$path"
          echo "  absent from the mirror, a 1x1 GIF in its place: $path" >&2 ;;
        *) rm -f "$OUT/$name/$path"; echo "  absent from the mirror: $path" >&2 ;;
      esac
    }
  done
  echo "$name: $(find "$OUT/$name" -type f | wc -l) files from github.com/$(echo "$repo" | tr + /) at $commit"
}

# Docusaurus, docs.path '../docs' outside website/ (MIT).
extract redux reduxjs+redux 3084fc33bb23ab4cab4796172eafe342da4e73d9 LICENSE.md docs website/docusaurus.config.ts website/sidebars.js website/static
# MkDocs, Material-free plain mkdocs.yml (BSD-3-Clause).
extract httpx encode+httpx ae1b9f66238f75ced3ced5e4485408435de10768 LICENSE.md mkdocs.yml docs
# Starlight, 17 locales (MIT).
extract starlight withastro+starlight 3999be7cc18b41095d61e3b63d68ff3e6c6c050b LICENSE docs/astro.config.mjs docs/src/content/docs docs/src/assets docs/public
