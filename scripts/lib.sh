# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Common helpers for the scripts; sourced, not run.

IRDMA_REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Run setup (cheap when all is in place) and load the cache's environment.
irdma_env() {
	local envfile
	envfile=$("$IRDMA_REPO/scripts/setup") || exit 1
	# shellcheck disable=SC1090
	. "$envfile"
}

# The repo's source files: tracked, plus new ones git does not ignore.
irdma_repo_files() {
	git -C "$IRDMA_REPO" ls-files -co --exclude-standard
}

# Copy the repo to DEST keeping modification times, so that kbuild only
# rebuilds what changed since the last copy.
irdma_copy_repo() {
	local dest=$1

	rm -rf "$dest.new"
	mkdir -p "$dest.new"
	(cd "$IRDMA_REPO" && irdma_repo_files | cpio -pdm --quiet "$dest.new")
	rm -rf "$dest"
	mv "$dest.new" "$dest"
}
