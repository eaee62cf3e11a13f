// SPDX-License-Identifier: Apache-2.0
#pragma once

// The file consumer: polls a folder on the context's scheduler, lists on a worker, and feeds
// a poll's files to the route one after another. A file is moved, deleted or left (noop) only
// once its exchange completed; a failed one goes to moveFailed, or stays to be tried again —
// so a process killed mid-route finds its file again on restart (at-least-once).

#include <chrono>
#include <memory>
#include <regex>
#include <string>

#include <dromedary/engine/idempotent_repository.h>
#include <dromedary/spi/component.h>
#include <dromedary/spi/language.h>

namespace dromedary::component::file {

enum class ReadLock { None, MarkerFile, Changed, FileLock, Rename };

/// One key of sortBy: what is compared, and how.
struct SortKey {
  enum class By { Name, OnlyName, Modified, Size, Ext, Parent } by = By::Name;
  bool reverse = false;
  bool ignoreCase = false;
};

/// A consumer's options, parsed and compiled when the endpoint makes it.
struct ConsumerSettings {
  std::string directory;  ///< as the URI gives it (relative or absolute)
  std::chrono::milliseconds initialDelay{1000};
  std::chrono::milliseconds delay{500};
  bool useFixedDelay = true;
  bool recursive = false;
  int64_t minDepth = 0;
  int64_t maxDepth = 0;
  std::optional<std::regex> include;
  std::optional<std::regex> exclude;
  std::vector<std::string> includeExt;
  std::vector<std::string> excludeExt;
  std::string antInclude;
  std::string antExclude;
  bool antCaseSensitive = true;
  std::unique_ptr<Predicate> filterFile;
  std::unique_ptr<Predicate> filterDirectory;
  std::unique_ptr<Expression> fileName;
  std::string doneFileName;
  std::string charset;  ///< of the files: bodies read as UTF-8 (empty: bytes as they are)
  std::vector<SortKey> sortBy;
  int64_t maxMessagesPerPoll = 0;
  bool eagerMaxMessagesPerPoll = true;
  ReadLock readLock = ReadLock::None;
  std::chrono::milliseconds readLockCheckInterval{1000};
  int64_t readLockMinLength = 1;
  std::chrono::milliseconds readLockMinAge{0};
  bool deleteOrphanLockFiles = true;
  std::shared_ptr<IdempotentRepository> idempotent;  ///< null: idempotent off
  std::unique_ptr<Expression> idempotentKey;
  bool startingDirectoryMustExist = false;
  bool autoCreate = true;
  bool bridgeErrorHandler = false;
  bool noop = false;
  bool deleteFile = false;
  std::unique_ptr<Expression> move;  ///< null with noop or delete
  std::unique_ptr<Expression> moveFailed;
  std::unique_ptr<Expression> preMove;
};

/// Parses sortBy ("file:modified;reverse:file:name"); an unknown key is an error naming it.
Result<std::vector<SortKey>> parseSortBy(std::string_view text);

/// A move/preMove/moveFailed option as Camel reads it: a plain name is a folder beside the
/// file (".done" -> "${file:parent}/.done/${file:onlyname}"), Simple otherwise.
std::string moveExpressionText(std::string_view option);

std::unique_ptr<Consumer> makeFileConsumer(Context& context, Processor& processor,
                                           std::shared_ptr<ConsumerSettings> settings);

}  // namespace dromedary::component::file
