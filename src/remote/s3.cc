#include "remote/s3.h"

#include <openssl/evp.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>

#include "remote/http_client.h"
#include "timef/error.h"

namespace timef::remote {
namespace {

std::string EnvText(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : std::string(value);
}

bool IsUnreserved(unsigned char c) {
  return std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~';
}

// A parsed XML element: what S3's answers need (names, text, children; attributes skipped).
struct Element {
  std::string name;
  std::string text;
  std::vector<Element> children;

  const Element* Child(std::string_view child) const {
    for (const Element& e : children) {
      if (e.name == child) return &e;
    }
    return nullptr;
  }
};

class XmlParser {
 public:
  XmlParser(std::string_view xml, const std::string& shown) : xml_(xml), shown_(shown) {}

  Element Document() {
    SkipMisc();
    Element root = ParseElement(0);
    SkipMisc();
    if (pos_ != xml_.size()) Fail("text after the root element");
    return root;
  }

 private:
  static constexpr int kMaxDepth = 16;

  [[noreturn]] void Fail(const std::string& problem) const {
    throw FormatError({.file = shown_, .where = "byte " + std::to_string(pos_)},
                      "not a valid S3 XML answer: " + problem);
  }

  bool At(std::string_view s) const { return xml_.substr(pos_).starts_with(s); }

  void SkipUntil(std::string_view end) {
    const auto found = xml_.find(end, pos_);
    if (found == std::string_view::npos) Fail("'" + std::string(end) + "' missing");
    pos_ = found + end.size();
  }

  void SkipSpace() {
    while (pos_ < xml_.size() && std::isspace(static_cast<unsigned char>(xml_[pos_]))) ++pos_;
  }

  // Whitespace, the XML declaration, processing instructions and comments.
  void SkipMisc() {
    for (;;) {
      SkipSpace();
      if (At("<?")) {
        SkipUntil("?>");
      } else if (At("<!--")) {
        SkipUntil("-->");
      } else if (At("<!")) {
        Fail("a DOCTYPE or other declaration");
      } else {
        return;
      }
    }
  }

  std::string Name() {
    const std::size_t begin = pos_;
    while (pos_ < xml_.size()) {
      const unsigned char c = static_cast<unsigned char>(xml_[pos_]);
      if (std::isspace(c) || c == '>' || c == '/' || c == '<' || c == '=') break;
      ++pos_;
    }
    if (pos_ == begin) Fail("an element without a name");
    return std::string(xml_.substr(begin, pos_ - begin));
  }

  void AppendText(std::string_view raw, std::string& out) {
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] != '&') {
        out += raw[i];
        continue;
      }
      const auto semi = raw.find(';', i);
      if (semi == std::string_view::npos || semi - i > 12) Fail("an unterminated entity");
      const std::string_view entity = raw.substr(i + 1, semi - i - 1);
      if (entity == "amp") {
        out += '&';
      } else if (entity == "lt") {
        out += '<';
      } else if (entity == "gt") {
        out += '>';
      } else if (entity == "quot") {
        out += '"';
      } else if (entity == "apos") {
        out += '\'';
      } else if (entity.size() > 1 && entity[0] == '#') {
        const bool hex = entity[1] == 'x';
        const std::string_view digits = entity.substr(hex ? 2 : 1);
        std::uint32_t code = 0;
        const auto [end, error] =
            std::from_chars(digits.data(), digits.data() + digits.size(), code, hex ? 16 : 10);
        if (digits.empty() || error != std::errc() || end != digits.data() + digits.size() ||
            code == 0 || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
          Fail("a bad character reference '&" + std::string(entity) + ";'");
        }
        // UTF-8 encoding of the code point.
        if (code < 0x80) {
          out += static_cast<char>(code);
        } else if (code < 0x800) {
          out += static_cast<char>(0xC0 | (code >> 6));
          out += static_cast<char>(0x80 | (code & 0x3F));
        } else if (code < 0x10000) {
          out += static_cast<char>(0xE0 | (code >> 12));
          out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
          out += static_cast<char>(0x80 | (code & 0x3F));
        } else {
          out += static_cast<char>(0xF0 | (code >> 18));
          out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
          out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
          out += static_cast<char>(0x80 | (code & 0x3F));
        }
      } else {
        Fail("an unknown entity '&" + std::string(entity) + ";'");
      }
      i = semi;
    }
  }

  Element ParseElement(int depth) {
    if (depth >= kMaxDepth) Fail("elements nested deeper than " + std::to_string(kMaxDepth));
    if (!At("<")) Fail("an element expected");
    ++pos_;
    Element element;
    element.name = Name();
    // Attributes are skipped (quoted values may hold '>').
    for (;;) {
      if (pos_ >= xml_.size()) Fail("an unterminated start tag");
      const char c = xml_[pos_];
      if (c == '"' || c == '\'') {
        const auto close = xml_.find(c, pos_ + 1);
        if (close == std::string_view::npos) Fail("an unterminated attribute value");
        pos_ = close + 1;
      } else if (c == '<') {
        Fail("'<' inside a tag");
      } else if (At("/>")) {
        pos_ += 2;
        return element;
      } else if (c == '>') {
        ++pos_;
        break;
      } else {
        ++pos_;
      }
    }
    for (;;) {
      const auto lt = xml_.find('<', pos_);
      if (lt == std::string_view::npos) Fail("'</" + element.name + ">' missing");
      AppendText(xml_.substr(pos_, lt - pos_), element.text);
      pos_ = lt;
      if (At("</")) {
        pos_ += 2;
        const std::string name = Name();
        SkipSpace();
        if (name != element.name || !At(">")) {
          Fail("'</" + name + ">' closes '<" + element.name + ">'");
        }
        ++pos_;
        return element;
      }
      if (At("<![CDATA[")) {
        const auto end = xml_.find("]]>", pos_);
        if (end == std::string_view::npos) Fail("an unterminated CDATA section");
        element.text.append(xml_.substr(pos_ + 9, end - pos_ - 9));
        pos_ = end + 3;
      } else if (At("<!--")) {
        SkipUntil("-->");
      } else if (At("<?")) {
        SkipUntil("?>");
      } else if (At("<!")) {
        Fail("a declaration inside an element");
      } else {
        element.children.push_back(ParseElement(depth + 1));
      }
    }
  }

  std::string_view xml_;
  const std::string& shown_;
  std::size_t pos_ = 0;
};

struct EvpDeleter {
  void operator()(EVP_MD_CTX* context) const { EVP_MD_CTX_free(context); }
};

// MD5 and SHA-256 of a stream of pieces.
class TwoDigests {
 public:
  TwoDigests() : md5_(EVP_MD_CTX_new()), sha_(EVP_MD_CTX_new()) {
    if (!md5_ || !sha_ || EVP_DigestInit_ex(md5_.get(), EVP_md5(), nullptr) != 1 ||
        EVP_DigestInit_ex(sha_.get(), EVP_sha256(), nullptr) != 1) {
      throw Error("OpenSSL could not initialise MD5 and SHA-256 digests");
    }
  }
  void Update(const void* data, std::size_t size) {
    EVP_DigestUpdate(md5_.get(), data, size);
    EVP_DigestUpdate(sha_.get(), data, size);
    size_ += size;
  }
  ObjectDigests Finish() {
    static constexpr char kHex[] = "0123456789abcdef";
    unsigned char md5[EVP_MAX_MD_SIZE];
    unsigned char sha[EVP_MAX_MD_SIZE];
    unsigned md5_size = 0, sha_size = 0;
    EVP_DigestFinal_ex(md5_.get(), md5, &md5_size);
    EVP_DigestFinal_ex(sha_.get(), sha, &sha_size);
    ObjectDigests out;
    out.size = size_;
    for (unsigned i = 0; i < md5_size; ++i) {
      out.md5_hex += kHex[md5[i] >> 4];
      out.md5_hex += kHex[md5[i] & 15];
    }
    for (unsigned i = 0; i < sha_size; ++i) {
      out.sha256_hex += kHex[sha[i] >> 4];
      out.sha256_hex += kHex[sha[i] & 15];
    }
    unsigned char b64[64];
    const int n = EVP_EncodeBlock(b64, md5, static_cast<int>(md5_size));
    out.md5_base64.assign(reinterpret_cast<const char*>(b64), static_cast<std::size_t>(n));
    return out;
  }

 private:
  std::unique_ptr<EVP_MD_CTX, EvpDeleter> md5_;
  std::unique_ptr<EVP_MD_CTX, EvpDeleter> sha_;
  std::uint64_t size_ = 0;
};

}  // namespace

ObjectDigests ObjectDigests::Of(std::span<const std::byte> bytes) {
  TwoDigests digests;
  digests.Update(bytes.data(), bytes.size());
  return digests.Finish();
}

ObjectDigests ObjectDigests::OfFile(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    const int err = errno;
    ThrowFileError({.file = file}, std::string("cannot open: ") + std::strerror(err),
                   std::error_code(err, std::generic_category()));
  }
  TwoDigests digests;
  std::vector<char> block(std::size_t{1} << 20);
  while (in) {
    in.read(block.data(), static_cast<std::streamsize>(block.size()));
    digests.Update(block.data(), static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) throw FileError({.file = file}, "read failed");
  return digests.Finish();
}

bool IsS3Url(std::string_view text) {
  if (text.size() < 5) return false;
  std::string scheme(text.substr(0, 5));
  std::transform(scheme.begin(), scheme.end(), scheme.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return scheme == "s3://";
}

S3Config S3Config::FromEnvironment() {
  S3Config config;
  config.access_key_id = EnvText("AWS_ACCESS_KEY_ID");
  config.secret_access_key = EnvText("AWS_SECRET_ACCESS_KEY");
  config.session_token = EnvText("AWS_SESSION_TOKEN");
  if (config.access_key_id.empty() != config.secret_access_key.empty()) {
    throw ValidationError({.object = "AWS_ACCESS_KEY_ID"},
                          "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are set together or not "
                          "at all");
  }
  for (const char* name : {"AWS_REGION", "AWS_DEFAULT_REGION"}) {
    if (std::string region = EnvText(name); !region.empty()) {
      if (!std::all_of(region.begin(), region.end(), [](unsigned char c) {
            return std::islower(c) || std::isdigit(c) || c == '-';
          })) {
        throw ValidationError({.object = name}, "region '" + region + "' is not [a-z0-9-]+");
      }
      config.region = std::move(region);
      break;
    }
  }
  for (const char* name : {"AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL"}) {
    std::string endpoint = EnvText(name);
    if (endpoint.empty()) continue;
    if (!IsUrl(endpoint) || IsS3Url(endpoint)) {
      throw ValidationError({.object = name, .where = RedactedUrl(endpoint)},
                            "not an http:// or https:// URL");
    }
    const Url url = Url::Parse(endpoint);
    if (!url.userinfo.empty() || !url.query.empty()) {
      throw ValidationError({.object = name, .where = url.Redacted()},
                            "an endpoint carries no credentials or query string");
    }
    config.endpoint = url.Redacted();
    while (config.endpoint.ends_with('/')) config.endpoint.pop_back();
    break;
  }
  return config;
}

std::string AwsUriEncode(std::string_view text, bool keep_slash) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (IsUnreserved(c) || (keep_slash && c == '/')) {
      out += ch;
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

S3Object S3Object::FromUrl(const Url& s3) {
  if (s3.scheme != "s3") {
    throw ValidationError({.object = "URL", .where = s3.Redacted()}, "not an s3:// URL");
  }
  return S3Object{.bucket = s3.authority, .key = s3.path.substr(1)};
}

Url S3Object::ToUrl() const {
  return Url{.scheme = "s3", .userinfo = "", .authority = bucket, .path = "/" + key, .query = ""};
}

std::string S3RequestUrl(const Url& s3, const S3Config& config) {
  const S3Object object = S3Object::FromUrl(s3);
  const std::string key = AwsUriEncode(object.key, true);
  std::string out;
  if (!config.endpoint.empty()) {
    out = config.endpoint + "/" + object.bucket + "/" + key;
  } else if (object.bucket.find('.') != std::string::npos) {
    out = "https://s3." + config.region + ".amazonaws.com/" + object.bucket + "/" + key;
  } else {
    out = "https://" + object.bucket + ".s3." + config.region + ".amazonaws.com/" + key;
  }
  if (!s3.query.empty()) out += "?" + s3.query;
  return out;
}

std::string ListObjectsV2Query(std::string_view prefix, std::string_view delimiter,
                               std::string_view continuation_token) {
  // Sorted by name, as the canonical request lists them.
  std::string query;
  if (!continuation_token.empty()) {
    query += "continuation-token=" + AwsUriEncode(continuation_token, false) + "&";
  }
  if (!delimiter.empty()) query += "delimiter=" + AwsUriEncode(delimiter, false) + "&";
  query += "list-type=2";
  query += "&prefix=" + AwsUriEncode(prefix, false);
  return query;
}

S3ListPage ParseListObjectsV2(std::string_view xml, const std::string& shown) {
  XmlParser parser(xml, shown);
  const Element root = parser.Document();
  if (root.name != "ListBucketResult") {
    throw FormatError({.file = shown},
                      "not a ListObjectsV2 answer: the root element is <" + root.name + ">");
  }
  S3ListPage page;
  for (const Element& e : root.children) {
    if (e.name == "Contents") {
      const Element* key = e.Child("Key");
      const Element* size = e.Child("Size");
      if (key == nullptr || size == nullptr) {
        throw FormatError({.file = shown}, "a <Contents> without <Key> or <Size>");
      }
      S3ListPage::Entry entry{.key = key->text, .size = 0};
      const std::string& s = size->text;
      const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), entry.size);
      if (s.empty() || error != std::errc() || end != s.data() + s.size()) {
        throw FormatError({.file = shown, .where = "Size of '" + key->text + "'"},
                          "'" + s + "' is not a size in bytes");
      }
      page.objects.push_back(std::move(entry));
    } else if (e.name == "CommonPrefixes") {
      for (const Element& p : e.children) {
        if (p.name == "Prefix") page.prefixes.push_back(p.text);
      }
    } else if (e.name == "IsTruncated") {
      page.truncated = e.text == "true";
    } else if (e.name == "NextContinuationToken") {
      page.next_token = e.text;
    }
  }
  if (page.truncated && page.next_token.empty()) {
    throw FormatError({.file = shown},
                      "a truncated ListObjectsV2 page without <NextContinuationToken>");
  }
  return page;
}

S3ListPage ListObjectsV2(HttpClient& client, const std::string& bucket, std::string_view prefix,
                         std::string_view delimiter) {
  constexpr int kMaxPages = 100000;
  constexpr std::uint64_t kMaxPageBytes = std::uint64_t{64} << 20;
  S3ListPage all;
  std::string token;
  for (int page_number = 0;; ++page_number) {
    Url url = S3Object{.bucket = bucket, .key = ""}.ToUrl();
    url.query = ListObjectsV2Query(prefix, delimiter, token);
    const std::string shown = url.Redacted() + " (ListObjectsV2 of '" + std::string(prefix) + "')";
    if (page_number >= kMaxPages) {
      throw FileError({.file = shown}, "more than " + std::to_string(kMaxPages) + " pages");
    }
    const std::vector<std::byte> body = client.Fetch(url.Full(), kMaxPageBytes);
    S3ListPage page = ParseListObjectsV2(
        std::string_view(reinterpret_cast<const char*>(body.data()), body.size()), shown);
    for (auto& o : page.objects) all.objects.push_back(std::move(o));
    for (auto& p : page.prefixes) all.prefixes.push_back(std::move(p));
    if (!page.truncated) return all;
    if (page.next_token == token) {
      throw FileError({.file = shown}, "the server answered the same continuation token again");
    }
    token = page.next_token;
  }
}

std::string S3ErrorCode(std::string_view body) {
  try {
    const std::string shown = "S3 error";
    XmlParser parser(body, shown);
    const Element root = parser.Document();
    if (root.name != "Error") return "";
    const Element* code = root.Child("Code");
    return code == nullptr ? "" : code->text;
  } catch (const Error&) {
    return "";
  }
}

}  // namespace timef::remote
