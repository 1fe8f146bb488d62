# Sourced by the scripts that need Debian packages.
# install_missing WHO PACKAGE...: installs with apt-get the packages that
# are not installed yet (with sudo when not root), saying so as WHO.
install_missing() {
	local who=$1 p sudo=""
	local missing=()

	shift
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -gt 0 ] || return 0
	echo "$who: installing ${missing[*]}" >&2
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
		--no-install-recommends "${missing[@]}" >/dev/null
}
