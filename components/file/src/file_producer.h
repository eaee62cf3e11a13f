// SPDX-License-Identifier: Apache-2.0
#pragma once

// The file producer: writes the body to DIRECTORY/fileName (Simple, else the CamelFileName
// header, else the exchange id), as Camel's file producer: what to do when the file exists,
// a temporary name renamed into place so readers never see half a file, a done file, and a
// jail that refuses names leaving the folder.

#include <memory>
#include <string>

#include <dromedary/spi/component.h>
#include <dromedary/spi/language.h>

namespace dromedary::component::file {

enum class FileExist { Override, Append, Fail, Ignore, Move, TryRename };

struct ProducerSettings {
  std::string directory;
  std::unique_ptr<Expression> fileName;  ///< null: the CamelFileName header
  FileExist fileExist = FileExist::Override;
  std::string moveExisting;  ///< a folder, or a name with File tokens
  std::string tempPrefix;
  std::unique_ptr<Expression> tempFileName;
  std::string doneFileName;
  std::string appendChars;  ///< with \n, \r and \t turned into their characters
  bool autoCreate = true;
  bool flatten = false;
  bool jail = true;
  std::string charset;  ///< written in it (empty: bytes as they are)
  int chmod = -1;  ///< the written file's mode, read from octal at start; -1: not given
  std::string chmodDirectory;
  bool keepLastModified = false;
  bool eagerDeleteTargetFile = true;
  bool forceWrites = true;
};

std::unique_ptr<Producer> makeFileProducer(std::shared_ptr<ProducerSettings> settings);

}  // namespace dromedary::component::file
