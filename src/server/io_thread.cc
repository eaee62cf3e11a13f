// SPDX-License-Identifier: Apache-2.0
#include <dromedary/support/io_thread.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <future>

namespace dromedary::support {

namespace {
thread_local IoThread* tls_current = nullptr;

// Takes the entry kept under `key` out of `entries` (to be destroyed by the caller).
std::unique_ptr<IoThread::Attachment> takeEntry(auto& entries, const void* key) {
  auto it = std::find_if(entries.begin(), entries.end(), [&](auto& e) { return e.key == key; });
  if (it == entries.end()) return nullptr;
  std::unique_ptr<IoThread::Attachment> taken = std::move(it->attachment);
  entries.erase(it);
  return taken;
}
}  // namespace

IoThread* IoThread::current() noexcept { return tls_current; }

IoThread::Attachment* IoThread::attachment(const void* key) const noexcept {
  for (const Entry& e : entries_) {
    if (e.key == key) return e.attachment.get();
  }
  return nullptr;
}

IoThread::Attachment* IoThread::attach(const void* key, std::unique_ptr<Attachment> attachment) {
  entries_.push_back({key, std::move(attachment)});
  return entries_.back().attachment.get();
}

void IoThread::detach(const void* key) noexcept {
  runAndWait([this, key] { takeEntry(entries_, key).reset(); });
}

void IoThread::runAndWait(const std::function<void()>& work) noexcept {
  if (tls_current == this) {
    work();
    return;
  }
  std::unique_lock lock(mutex_);
  if (!running_) {
    // The thread has ended (or never began): nothing else touches what it kept.
    work();
    return;
  }
  try {
    std::promise<void> done;
    pending_.emplace_back([&work, &done] {
      work();
      done.set_value();
    });
    lock.unlock();
    // Run by the thread, or by ended() if its loop stops before this is run.
    boost::asio::post(io_, [this] { runPending(); });
    done.get_future().wait();
  } catch (...) {
    // Out of memory: not run.
  }
}

void IoThread::runPending() noexcept {
  std::vector<std::function<void()>> work;
  {
    std::lock_guard lock(mutex_);
    work.swap(pending_);
  }
  for (auto& w : work) w();
}

void IoThread::began() noexcept {
  tls_current = this;
  std::lock_guard lock(mutex_);
  running_ = true;
}

void IoThread::ended() noexcept {
  // Under the lock: a detach from another thread now works on the entries directly.
  std::lock_guard lock(mutex_);
  running_ = false;
  for (auto& w : pending_) w();
  pending_.clear();
  // Destroyed here, on the thread, while the io_context still exists; each in turn, so that
  // one closing may still look the others up.
  while (!entries_.empty()) takeEntry(entries_, entries_.back().key).reset();
  tls_current = nullptr;
}

}  // namespace dromedary::support
