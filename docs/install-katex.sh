#!/usr/bin/env bash
# Install the KaTeX math renderer into docs/assets/katex/ from the npm registry, so the site
# serves its own math assets (no CDN at view time).  `npm pack` checks the tarball against the
# registry's integrity hash.  Run once before `mkdocs build`; .ci/run calls it.
set -euo pipefail
KATEX_VERSION=0.19.1
cd "$(dirname "$0")"
dest=assets/katex
if [ -f "$dest/VERSION" ] && [ "$(cat "$dest/VERSION")" = "$KATEX_VERSION" ]; then
    exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "katex@$KATEX_VERSION" >/dev/null && tar -xzf katex-*.tgz)
rm -rf "$dest"
mkdir -p "$dest/fonts" "$dest/contrib"
cp "$work/package/dist/katex.min.js" "$work/package/dist/katex.min.css" "$dest/"
cp "$work/package/dist/contrib/auto-render.min.js" "$dest/contrib/"
cp "$work/package/dist/fonts/"*.woff2 "$work/package/dist/fonts/"*.woff "$dest/fonts/"
cp "$work/package/LICENSE" "$dest/LICENSE"
echo "$KATEX_VERSION" > "$dest/VERSION"
