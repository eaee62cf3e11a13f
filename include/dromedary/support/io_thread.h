// SPDX-License-Identifier: Apache-2.0
#pragma once

/// An event-loop thread that components may run their own non-blocking I/O on: the embedded
/// HTTP server's I/O thread. A route that cannot block runs on the thread that received its
/// request; a component whose producer is called there (the http: producer) can drive its
/// sockets on the same Boost.Asio io_context, so that a proxied request is read, sent on,
/// answered and written back without changing thread.
///
/// What a component keeps on such a thread (its sockets, timers, pending requests) is an
/// Attachment, owned by the thread and found by a key the component chooses. It is closed on
/// the thread itself: when the thread ends (after its loop stopped, while its io_context still
/// exists) or when the component detaches it first.
///
/// Example (on the I/O thread, from a producer; MyLoop derives from IoThread::Attachment):
///   if (support::IoThread* io = support::IoThread::current()) {
///     auto* mine = static_cast<MyLoop*>(io->attachment(this));
///     if (!mine) {
///       mine = static_cast<MyLoop*>(io->attach(this, std::make_unique<MyLoop>(io->io())));
///     }
///   }

#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace boost::asio {
class io_context;
}

namespace dromedary::support {

class IoThread : public std::enable_shared_from_this<IoThread> {
 public:
  /// What a component keeps on the thread. Destroyed on the thread (or, once it has ended,
  /// by whoever detaches it), never while one of its handlers runs.
  class Attachment {
   public:
    virtual ~Attachment() = default;
  };

  explicit IoThread(boost::asio::io_context& io) noexcept : io_(io) {}
  IoThread(const IoThread&) = delete;
  IoThread& operator=(const IoThread&) = delete;

  /// The calling thread's IoThread, or null when it is not one.
  static IoThread* current() noexcept;
  boost::asio::io_context& io() noexcept { return io_; }

  /// On the thread: the attachment kept under `key`, or null.
  Attachment* attachment(const void* key) const noexcept;
  /// On the thread: keeps `attachment` under `key` (which has none) until the thread ends or
  /// detach(key); returns it.
  Attachment* attach(const void* key, std::unique_ptr<Attachment> attachment);
  /// From any thread: destroys the attachment kept under `key`, if any, on the thread while
  /// it runs (waiting for it), else right here. Not from one of the attachment's handlers.
  void detach(const void* key) noexcept;
  /// From any thread: runs `work` on the thread while it runs, and waits for it; right here
  /// when called on the thread, or once the thread has ended (or before it began). Not from a
  /// handler of the thread that another thread waits for.
  void runAndWait(const std::function<void()>& work) noexcept;

  // For the thread's owner.
  /// Marks the calling thread as this one, until ended().
  void began() noexcept;
  /// On the thread, after its loop stopped for good: destroys every attachment and runs the
  /// detaches still pending. detach() calls after this destroy right away.
  void ended() noexcept;

 private:
  void runPending() noexcept;

  boost::asio::io_context& io_;
  struct Entry {
    const void* key;
    std::unique_ptr<Attachment> attachment;
  };
  // The thread's; touched by another thread only under mutex_ once the thread has ended.
  std::vector<Entry> entries_;
  std::mutex mutex_;
  bool running_ = false;
  std::vector<std::function<void()>> pending_;  // runAndWait's work waiting for the thread
};

}  // namespace dromedary::support
