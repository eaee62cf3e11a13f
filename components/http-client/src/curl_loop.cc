// SPDX-License-Identifier: Apache-2.0
#include "curl_loop.h"

#include <cstring>
#include <mutex>

namespace dromedary::component::httpclient {

void initCurlOnce() noexcept {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

// --- Transfer ---

Transfer::Transfer() : easy(curl_easy_init()) { error[0] = '\0'; }

Transfer::~Transfer() { curl_easy_cleanup(easy); }

void Transfer::reset() noexcept {
  curl_easy_reset(easy);
  error[0] = '\0';
  url.clear();
  requestBody.clear();
  header_text.clear();
  header_starts.clear();
  responseBody.reset(nullptr);
  bodyFailure.clear();
  responseHeaderText.clear();
  reason.clear();
  ignoreBody = false;
  cookies = nullptr;
  exchange = nullptr;
  owner = nullptr;
  done = nullptr;
}

void Transfer::addHeader(std::string_view name, std::string_view value) {
  header_starts.push_back(header_text.size());
  header_text.append(name);
  // "Name;" is curl's way to send a header with an empty value ("Name:" would remove it).
  if (value.empty()) {
    header_text += ';';
  } else {
    header_text += ": ";
    header_text.append(value);
  }
  header_text += '\0';
}

void Transfer::suppressHeader(std::string_view name) {
  header_starts.push_back(header_text.size());
  header_text.append(name);
  header_text += ":";
  header_text += '\0';
}

curl_slist* Transfer::headerList() noexcept {
  if (header_starts.empty()) return nullptr;
  if (header_nodes.size() < header_starts.size()) header_nodes.resize(header_starts.size());
  for (size_t i = 0; i < header_starts.size(); ++i) {
    header_nodes[i].data = header_text.data() + header_starts[i];
    header_nodes[i].next = i + 1 < header_starts.size() ? &header_nodes[i + 1] : nullptr;
  }
  return header_nodes.data();
}

// --- CurlLoop ---

struct CurlLoop::AllMutex {
  std::mutex mutex;
};

CurlLoop::CurlLoop(Limits limits) : all_mutex_(std::make_unique<AllMutex>()) {
  initCurlOnce();
  multi_ = curl_multi_init();
  curl_multi_setopt(multi_, CURLMOPT_MAX_TOTAL_CONNECTIONS, limits.maxTotal);
  curl_multi_setopt(multi_, CURLMOPT_MAX_HOST_CONNECTIONS, limits.perHost);
  // Idle connections kept for reuse: as many as may be open.
  curl_multi_setopt(multi_, CURLMOPT_MAXCONNECTS, limits.maxTotal);
  curl_multi_setopt(multi_, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX);
  thread_ = std::thread([this] { run(); });
}

CurlLoop::~CurlLoop() {
  stopping_.store(true, std::memory_order_release);
  curl_multi_wakeup(multi_);
  thread_.join();
  curl_multi_cleanup(multi_);
}

Transfer* CurlLoop::acquire() {
  Transfer* t = nullptr;
  if (!free_.try_dequeue(t)) {
    auto made = std::make_unique<Transfer>();
    t = made.get();
    std::lock_guard lock(all_mutex_->mutex);
    all_.push_back(std::move(made));
  }
  t->reset();
  t->loop = this;
  return t;
}

void CurlLoop::release(Transfer* transfer) noexcept {
  transfer->exchange = nullptr;
  free_.enqueue(transfer);
}

void CurlLoop::submit(Transfer* transfer) noexcept {
  curl_easy_setopt(transfer->easy, CURLOPT_PRIVATE, transfer);
  incoming_.enqueue(transfer);
  curl_multi_wakeup(multi_);
}

void CurlLoop::run() noexcept {
  while (true) {
    bool stopping = stopping_.load(std::memory_order_acquire);
    Transfer* t = nullptr;
    while (incoming_.try_dequeue(t)) {
      if (stopping) {
        t->done(*t, CURLE_ABORTED_BY_CALLBACK);
        continue;
      }
      if (t->cookies) curl_easy_setopt(t->easy, CURLOPT_SHARE, t->cookies);
      CURLMcode added = curl_multi_add_handle(multi_, t->easy);
      if (added != CURLM_OK) {
        if (t->cookies) curl_easy_setopt(t->easy, CURLOPT_SHARE, nullptr);
        std::snprintf(t->error, sizeof t->error, "%s", curl_multi_strerror(added));
        t->done(*t, CURLE_FAILED_INIT);
        continue;
      }
      active_.push_back(t);
    }
    if (stopping) {
      for (Transfer* a : active_) {
        curl_multi_remove_handle(multi_, a->easy);
        if (a->cookies) curl_easy_setopt(a->easy, CURLOPT_SHARE, nullptr);
        a->done(*a, CURLE_ABORTED_BY_CALLBACK);
      }
      active_.clear();
      return;
    }
    int running = 0;
    curl_multi_perform(multi_, &running);
    int left = 0;
    while (CURLMsg* msg = curl_multi_info_read(multi_, &left)) {
      if (msg->msg != CURLMSG_DONE) continue;
      Transfer* finished = nullptr;
      curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &finished);
      CURLcode result = msg->data.result;
      curl_multi_remove_handle(multi_, msg->easy_handle);
      // Detached here, on the loop thread: an idle handle holds no endpoint's cookie store.
      if (finished->cookies) curl_easy_setopt(finished->easy, CURLOPT_SHARE, nullptr);
      for (size_t i = 0; i < active_.size(); ++i) {
        if (active_[i] == finished) {
          active_[i] = active_.back();
          active_.pop_back();
          break;
        }
      }
      finished->done(*finished, result);
    }
    curl_multi_poll(multi_, nullptr, 0, 1000, nullptr);
  }
}

}  // namespace dromedary::component::httpclient
