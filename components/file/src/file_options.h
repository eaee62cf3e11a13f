// SPDX-License-Identifier: Apache-2.0
#pragma once

// file:DIRECTORY?options: Camel's file component's option names and defaults, consumer and
// producer in one table as Camel's endpoint has them.

#include <dromedary/spi/option_table.h>

namespace dromedary::component::file {

inline constexpr OptionSpec kFileOptions[] = {
    // --- consumer: when to poll ------------------------------------------------------------
    {"initialDelay", OptionType::Duration, "1000", "Time before the first poll"},
    {"delay", OptionType::Duration, "500", "Time between polls"},
    {"useFixedDelay", OptionType::Bool, "true",
     "Wait delay after each poll ends (true) or poll at fixed times (false)"},
    // --- consumer: what to pick ---------------------------------------------------------------
    {"recursive", OptionType::Bool, "false", "Look in sub-folders too"},
    {"minDepth", OptionType::Int, "0", "With recursive: the shallowest depth (1: the folder itself)"},
    {"maxDepth", OptionType::Int, "2147483647", "With recursive: the deepest depth"},
    {"include", OptionType::String, "", "Only file names matching this regex"},
    {"exclude", OptionType::String, "", "Not file names matching this regex"},
    {"includeExt", OptionType::String, "", "Only these extensions (comma-separated: txt,xml)"},
    {"excludeExt", OptionType::String, "", "Not these extensions"},
    {"antInclude", OptionType::String, "", "Only relative paths matching these Ant patterns"},
    {"antExclude", OptionType::String, "", "Not relative paths matching these Ant patterns"},
    {"antFilterCaseSensitive", OptionType::Bool, "true", "Ant patterns match case-sensitively"},
    {"filterFile", OptionType::String, "",
     "Only files for which this Simple predicate holds (it sees the CamelFile* headers)"},
    {"filterDirectory", OptionType::String, "",
     "With recursive: only enter folders for which this Simple predicate holds"},
    {"fileName", OptionType::String, "",
     "Consumer: only this file name (Simple); producer: the name to write (Simple)"},
    {"doneFileName", OptionType::String, "",
     "Consumer: only files whose done file exists (deleted after); producer: write one after "
     "(${file:name} and ${file:name.noext} stand for the file's)"},
    {"sortBy", OptionType::String, "",
     "Order of a poll's files: file:name, file:modified, file:size ... ';'-separated, each "
     "optionally reverse: or ignoreCase:"},
    {"maxMessagesPerPoll", OptionType::Int, "0", "At most this many files per poll (0: all)"},
    {"eagerMaxMessagesPerPoll", OptionType::Bool, "true",
     "Stop listing at maxMessagesPerPoll (true) or sort everything first (false)"},
    {"readLock", OptionType::Enum, "none",
     "How to tell a file is complete: none, markerFile, changed, fileLock or rename",
     "none,markerFile,changed,fileLock,rename"},
    {"readLockCheckInterval", OptionType::Duration, "1000",
     "changed: how long a file's size and time must stay the same"},
    {"readLockTimeout", OptionType::Duration, "10000",
     "changed: accepted for Camel's files (a changing file is looked at again next poll)"},
    {"readLockMinLength", OptionType::Int, "1", "changed: files shorter than this wait"},
    {"readLockMinAge", OptionType::Duration, "0",
     "changed: a file last modified this long ago is ready (instead of the stability check)"},
    {"readLockDeleteOrphanLockFiles", OptionType::Bool, "true",
     "markerFile: delete .camelLock files left by a process that died, at start"},
    {"idempotent", OptionType::Bool, "false",
     "Skip files already consumed (on by itself with noop)"},
    {"idempotentKey", OptionType::String, "",
     "What identifies a file for idempotent (Simple; default: its absolute path)"},
    {"idempotentRepository", OptionType::String, "",
     "A repository bound with Context::bindIdempotentRepository (#name); default: 1000 in "
     "memory"},
    {"startingDirectoryMustExist", OptionType::Bool, "false",
     "Fail at start when the folder is missing"},
    {"directoryMustExist", OptionType::Bool, "false",
     "Accepted for Camel's files (see startingDirectoryMustExist)"},
    {"bridgeErrorHandler", OptionType::Bool, "false",
     "A poll's errors (an unreadable folder) go to the route's error handler, not the log"},
    // --- consumer: after the exchange ------------------------------------------------------------
    {"noop", OptionType::Bool, "false", "Leave files where they are (and turn idempotent on)"},
    {"delete", OptionType::Bool, "false", "Delete a file once its exchange completed"},
    {"move", OptionType::String, "",
     "Where a completed file goes (Simple; a plain name is a folder beside it): default .camel"},
    {"moveFailed", OptionType::String, "",
     "Where a failed file goes (Simple, as move); without it the file stays and is tried again"},
    {"preMove", OptionType::String, "", "Where a file goes before its exchange starts (as move)"},
    // --- both ------------------------------------------------------------------------------------
    {"autoCreate", OptionType::Bool, "true", "Create the folder (and a file's folders) as needed"},
    {"charset", OptionType::String, "",
     "The files' character set: read as UTF-8 text, written from it (default: bytes as they are)"},
    // --- producer ------------------------------------------------------------------------------
    {"fileExist", OptionType::Enum, "Override",
     "When the file exists: Override, Append, Fail, Ignore, Move (to moveExisting), TryRename",
     "Override,Append,Fail,Ignore,Move,TryRename"},
    {"moveExisting", OptionType::String, "",
     "With fileExist=Move: where the existing file goes (Simple, as move)"},
    {"tempPrefix", OptionType::String, "",
     "Write under this prefix, then rename: readers never see half a file"},
    {"tempFileName", OptionType::String, "", "Write under this name (Simple), then rename"},
    {"appendChars", OptionType::String, "", "Written after the body (\\n for a new line)"},
    {"flatten", OptionType::Bool, "false", "Drop the folders of the file name"},
    {"jailStartingDirectory", OptionType::Bool, "true",
     "Refuse a file name that leaves the folder (..)"},
    {"chmod", OptionType::String, "", "Permissions of a written file, in octal (644)"},
    {"chmodDirectory", OptionType::String, "", "Permissions of folders it creates, in octal"},
    {"keepLastModified", OptionType::Bool, "false",
     "Give the file the time of the CamelFileLastModified header"},
    {"eagerDeleteTargetFile", OptionType::Bool, "true",
     "With tempPrefix and Override: delete the target before the rename"},
    {"forceWrites", OptionType::Bool, "true", "fsync each file before it counts as written"},
};

}  // namespace dromedary::component::file
