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

# Copy the repo to DEST so that kbuild rebuilds exactly what changed since
# the last copy, whatever the sources' own times.
irdma_copy_repo() {
	local dest=$1 f

	rm -rf "$dest.new"
	mkdir -p "$dest.new"
	# Copies are new files (their time is now), so that make rebuilds what
	# changed even when the source is older than the last build; a file
	# the same as the one it replaces keeps that one's time, so that make
	# leaves its object alone.
	(cd "$IRDMA_REPO" && irdma_repo_files | cpio -pd --quiet "$dest.new")
	if [ -d "$dest" ]; then
		# (an if, not "cmp && touch": a last file that differs must not
		# fail the loop, and with it a caller under set -e)
		(cd "$IRDMA_REPO" && irdma_repo_files) | while read -r f; do
			if cmp -s "$dest/$f" "$dest.new/$f"; then
				touch -r "$dest/$f" "$dest.new/$f"
			fi
		done
	fi
	rm -rf "$dest"
	mv "$dest.new" "$dest"
}
