// SPDX-License-Identifier: Apache-2.0
// The sql component's behaviour (sql_behaviour.h) on SQLite: a fresh database file per test.
#include <unistd.h>

#include <atomic>
#include <filesystem>

#include "aggregation_repository_behaviour.h"
#include "sql_behaviour.h"
#include "stream_list_behaviour.h"

namespace dromedary::testing {

std::string SqlBehaviour::url() {
  static std::atomic<int> n{0};
  std::string path = fmt::format("{}/dromedary-sql-{}-{}.db",
                                 std::filesystem::temp_directory_path().string(), getpid(), ++n);
  std::filesystem::remove(path);
  return "jdbc:sqlite:" + path;
}

INSTANTIATE_TEST_SUITE_P(SQLite, SqlBehaviour, ::testing::Values("sqlite"));

}  // namespace dromedary::testing
