// SPDX-License-Identifier: Apache-2.0
#pragma once

// `dromedary version [--json]`: the version and how this binary was built, for bug reports.

namespace dromedary::cli {

/// What the build recorded (build_info.cc.in, filled in when the build is configured).
struct BuildInfo {
  const char* version;    ///< "major.minor.patch"
  const char* commit;     ///< `git describe --always --dirty`, or "unknown" outside a checkout
  const char* compiler;   ///< "GNU 12.2.0"
  const char* buildType;  ///< Release, Debug ...
  const char* system;     ///< "Linux x86_64"
  bool systemd;           ///< readiness is reported to systemd (sd_notify)
};

const BuildInfo& buildInfo();

/// Prints `dromedary VERSION (commit COMMIT)`, or with `json` everything above with the
/// components, languages and data formats of this build. Exit code 0.
int printVersion(bool json);

}  // namespace dromedary::cli
