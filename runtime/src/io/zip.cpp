// The ZIP reader and writer behind .npz: end-of-central-directory search (ZIP64 locator and
// record included), central directory and local header validation, stored and deflated members
// (zlib raw inflate capped at the declared size), CRC-32 checks; the writer streams local
// headers and data, then the central directory, like Python's zipfile.
#include "io/zip.hpp"

#include <zlib.h>

#include <algorithm>
#include <ctime>
#include <limits>
#include <string>

#include "cupp/errors.hpp"
#include "io/npy_format.hpp"

namespace cupp::io::detail {

namespace {

constexpr std::uint32_t local_signature = 0x04034b50;
constexpr std::uint32_t central_signature = 0x02014b50;
constexpr std::uint32_t end_signature = 0x06054b50;
constexpr std::uint32_t zip64_end_signature = 0x06064b50;
constexpr std::uint32_t zip64_locator_signature = 0x07064b50;
constexpr std::size_t local_header_size = 30;
constexpr std::size_t central_header_size = 46;
constexpr std::size_t end_record_size = 22;
constexpr std::size_t zip64_end_size = 56;
constexpr std::size_t zip64_locator_size = 20;
constexpr std::uint64_t zip64_limit = 0x7FFFFFFF;  // Python's zipfile switches to ZIP64 above this
constexpr std::uint64_t count_limit = 0xFFFF;
constexpr std::uint64_t max_deflate_ratio = 1033;  // deflate cannot expand data more than ~1032:1
constexpr std::size_t zlib_chunk = std::size_t(1) << 30;

[[noreturn]] void bad_zip(const std::string& what) { throw ValueError("cannot read .npz archive: " + what); }

// Bounds-checked little-endian reads.
class reader {
 public:
  explicit reader(std::span<const std::byte> bytes) : bytes_(bytes) {}
  bool fits(std::uint64_t offset, std::uint64_t length) const {
    return offset <= bytes_.size() && length <= bytes_.size() - offset;
  }
  std::uint64_t le(std::uint64_t offset, std::size_t width) const {
    if (!fits(offset, width)) bad_zip("a record runs past the end of the archive");
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < width; ++i)
      v |= std::uint64_t(std::to_integer<unsigned>(bytes_[static_cast<std::size_t>(offset) + i])) << (8 * i);
    return v;
  }
  std::uint16_t u16(std::uint64_t offset) const { return static_cast<std::uint16_t>(le(offset, 2)); }
  std::uint32_t u32(std::uint64_t offset) const { return static_cast<std::uint32_t>(le(offset, 4)); }
  std::uint64_t u64(std::uint64_t offset) const { return le(offset, 8); }
  std::span<const std::byte> bytes(std::uint64_t offset, std::uint64_t length) const {
    if (!fits(offset, length)) bad_zip("a record runs past the end of the archive");
    return bytes_.subspan(static_cast<std::size_t>(offset), static_cast<std::size_t>(length));
  }
  std::uint64_t size() const { return bytes_.size(); }

 private:
  std::span<const std::byte> bytes_;
};

struct central_entry {
  std::string name;
  std::span<const std::byte> raw_name;
  std::uint16_t flags = 0, method = 0;
  std::uint32_t crc = 0;
  std::uint64_t compressed_size = 0, size = 0, local_offset = 0;
  std::uint64_t data_offset = 0;  // after the local header
};

struct zstream_inflate {
  z_stream s{};
  zstream_inflate() {
    if (inflateInit2(&s, -MAX_WBITS) != Z_OK) throw Error("zlib: inflateInit2 failed");
  }
  ~zstream_inflate() { inflateEnd(&s); }
  zstream_inflate(const zstream_inflate&) = delete;
  zstream_inflate& operator=(const zstream_inflate&) = delete;
};

struct zstream_deflate {
  z_stream s{};
  zstream_deflate() {
    if (deflateInit2(&s, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
      throw Error("zlib: deflateInit2 failed");
  }
  ~zstream_deflate() { deflateEnd(&s); }
  zstream_deflate(const zstream_deflate&) = delete;
  zstream_deflate& operator=(const zstream_deflate&) = delete;
};

Bytef* zin(const std::byte* p) { return reinterpret_cast<Bytef*>(const_cast<std::byte*>(p)); }

// Inflates raw deflate data that must give exactly `expected` bytes; the output grows as data
// arrives, so a lying size costs no more memory than the data really inflates to.
std::vector<std::byte> inflate_member(std::span<const std::byte> in, std::uint64_t expected, std::string_view name) {
  const auto where = [&] { return " (member '" + printable(name, 100) + "')"; };
  zstream_inflate z;
  std::vector<std::byte> out;
  std::size_t produced = 0, consumed = 0;
  while (true) {
    if (z.s.avail_in == 0 && consumed < in.size()) {
      const std::size_t chunk = std::min(in.size() - consumed, zlib_chunk);
      z.s.next_in = zin(in.data() + consumed);
      z.s.avail_in = static_cast<uInt>(chunk);
      consumed += chunk;
    }
    if (produced == out.size() && out.size() < expected)
      out.resize(static_cast<std::size_t>(std::min<std::uint64_t>(expected, std::max<std::size_t>(out.size() * 2, 1 << 16))));
    Bytef spill;
    const std::size_t room = out.size() - produced;
    if (room == 0) {
      z.s.next_out = &spill;
      z.s.avail_out = 1;
    } else {
      z.s.next_out = reinterpret_cast<Bytef*>(out.data() + produced);
      z.s.avail_out = static_cast<uInt>(std::min(room, zlib_chunk));
    }
    const uInt out_before = z.s.avail_out;
    const uInt in_before = z.s.avail_in;
    const int rc = inflate(&z.s, Z_NO_FLUSH);
    const std::size_t made = out_before - z.s.avail_out;
    if (room == 0 && made != 0) bad_zip("a member inflates to more than its declared " + std::to_string(expected) + " bytes" + where());
    produced += made;
    if (rc == Z_STREAM_END) break;
    if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT || rc == Z_STREAM_ERROR)
      bad_zip(std::string("corrupt deflate data: ") + (z.s.msg ? z.s.msg : "invalid stream") + where());
    if (rc == Z_MEM_ERROR) throw Error("zlib: out of memory while inflating");
    const bool progress = made != 0 || z.s.avail_in != in_before;
    if (!progress && z.s.avail_in == 0 && consumed == in.size()) bad_zip("truncated deflate data" + where());
  }
  if (produced != expected)
    bad_zip("a member inflates to " + std::to_string(produced) + " bytes, its header says " + std::to_string(expected) + where());
  out.resize(produced);
  return out;
}

std::string decode_name(std::span<const std::byte> raw, std::uint16_t flags) {
  std::string name(reinterpret_cast<const char*>(raw.data()), raw.size());
  // Names without the UTF-8 flag are CP437 in the standard; cupp accepts ASCII and UTF-8.
  if (!valid_utf8(name))
    bad_zip(std::string(flags & 0x800 ? "a member name flagged UTF-8 is not UTF-8" : "a member name is neither ASCII nor UTF-8") +
            ": '" + printable(name, 100) + "'");
  return name;
}

// Reads the ZIP64 extended information of an extra field into the values that are saturated.
void apply_zip64_extra(std::span<const std::byte> extra, central_entry& e, bool size_saturated, bool csize_saturated,
                       bool offset_saturated) {
  const reader r(extra);
  std::uint64_t at = 0;
  while (at + 4 <= extra.size()) {
    const std::uint16_t tag = r.u16(at);
    const std::uint16_t length = r.u16(at + 2);
    if (!r.fits(at + 4, length)) bad_zip("a malformed extra field in the central directory");
    if (tag == 0x0001) {
      std::uint64_t field = at + 4;
      const std::uint64_t end = at + 4 + length;
      auto next = [&]() {
        if (field + 8 > end) bad_zip("a ZIP64 extra field is too short");
        const std::uint64_t v = r.u64(field);
        field += 8;
        return v;
      };
      if (size_saturated) e.size = next();
      if (csize_saturated) e.compressed_size = next();
      if (offset_saturated) e.local_offset = next();
      return;
    }
    at += 4 + length;
  }
  if (size_saturated || csize_saturated || offset_saturated) bad_zip("a saturated size or offset without a ZIP64 extra field");
}

}  // namespace

std::uint32_t crc32_of(std::span<const std::byte> data) {
  uLong crc = crc32(0L, Z_NULL, 0);
  for (std::size_t at = 0; at < data.size(); at += zlib_chunk) {
    const std::size_t n = std::min(zlib_chunk, data.size() - at);
    crc = crc32(crc, zin(data.data() + at), static_cast<uInt>(n));
  }
  return static_cast<std::uint32_t>(crc);
}

std::vector<std::byte> deflate_raw(std::span<const std::byte> data) {
  zstream_deflate z;
  std::vector<std::byte> out(static_cast<std::size_t>(deflateBound(&z.s, data.size())) + 64);
  std::size_t produced = 0, consumed = 0;
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    if (z.s.avail_in == 0 && consumed < data.size()) {
      const std::size_t chunk = std::min(data.size() - consumed, zlib_chunk);
      z.s.next_in = zin(data.data() + consumed);
      z.s.avail_in = static_cast<uInt>(chunk);
      consumed += chunk;
    }
    if (produced == out.size()) out.resize(out.size() * 2);
    z.s.next_out = reinterpret_cast<Bytef*>(out.data() + produced);
    const std::size_t room = std::min(out.size() - produced, zlib_chunk);
    z.s.avail_out = static_cast<uInt>(room);
    const int flush = consumed == data.size() && z.s.avail_in == 0 ? Z_FINISH : Z_NO_FLUSH;
    rc = deflate(&z.s, flush);
    if (rc == Z_STREAM_ERROR) throw Error("zlib: deflate failed");
    produced += room - z.s.avail_out;
  }
  out.resize(produced);
  return out;
}

void read_zip(std::span<const std::byte> archive, const zip_read_options& options,
              const std::function<bool(std::string_view)>& want,
              const std::function<void(std::string_view, std::span<const std::byte>)>& visit) {
  const reader r(archive);
  if (archive.size() < end_record_size) bad_zip("not a ZIP archive (" + std::to_string(archive.size()) + " bytes)");

  // The end of central directory record: the last one whose comment fits the archive.
  std::uint64_t end_at = 0;
  bool found = false;
  const std::uint64_t lowest = archive.size() > end_record_size + 0xFFFF ? archive.size() - end_record_size - 0xFFFF : 0;
  for (std::uint64_t at = archive.size() - end_record_size + 1; at-- > lowest;) {
    if (r.u32(at) == end_signature && at + end_record_size + r.u16(at + 20) <= archive.size()) {
      end_at = at;
      found = true;
      break;
    }
  }
  if (!found) bad_zip("no end of central directory record (not a ZIP archive, or truncated)");
  std::uint64_t disk = r.u16(end_at + 4), directory_disk = r.u16(end_at + 6);
  std::uint64_t disk_entries = r.u16(end_at + 8), entries = r.u16(end_at + 10);
  std::uint64_t directory_size = r.u32(end_at + 12), directory_offset = r.u32(end_at + 16);
  std::uint64_t directory_limit = end_at;  // the directory must end before this

  if (end_at >= zip64_locator_size && r.u32(end_at - zip64_locator_size) == zip64_locator_signature) {
    const std::uint64_t locator = end_at - zip64_locator_size;
    const std::uint64_t record = r.u64(locator + 8);
    if (r.u32(locator + 4) != 0 || r.u32(locator + 16) > 1) bad_zip("multi-disk archives are not supported");
    if (record > locator || locator - record < zip64_end_size) bad_zip("the ZIP64 end record is out of bounds");
    if (r.u32(record) != zip64_end_signature) bad_zip("bad ZIP64 end of central directory signature");
    disk = r.u32(record + 16);
    directory_disk = r.u32(record + 20);
    disk_entries = r.u64(record + 24);
    entries = r.u64(record + 32);
    directory_size = r.u64(record + 40);
    directory_offset = r.u64(record + 48);
    directory_limit = record;
  }
  if (disk != 0 || directory_disk != 0 || disk_entries != entries) bad_zip("multi-disk archives are not supported");
  if (directory_offset > directory_limit || directory_size > directory_limit - directory_offset)
    bad_zip("the central directory (offset " + std::to_string(directory_offset) + ", " + std::to_string(directory_size) +
            " bytes) lies outside the archive");
  if (entries > directory_size / central_header_size)
    bad_zip("the archive claims " + std::to_string(entries) + " members, more than its central directory can hold");

  // The central directory.
  std::vector<central_entry> members;
  members.reserve(static_cast<std::size_t>(entries));
  const std::uint64_t directory_end = directory_offset + directory_size;
  std::uint64_t at = directory_offset;
  for (std::uint64_t i = 0; i < entries; ++i) {
    if (directory_end - at < central_header_size) bad_zip("the central directory is truncated");
    if (r.u32(at) != central_signature) bad_zip("bad central directory signature at offset " + std::to_string(at));
    central_entry e;
    e.flags = r.u16(at + 8);
    e.method = r.u16(at + 10);
    e.crc = r.u32(at + 16);
    e.compressed_size = r.u32(at + 20);
    e.size = r.u32(at + 24);
    const std::uint64_t name_length = r.u16(at + 28), extra_length = r.u16(at + 30), comment_length = r.u16(at + 32);
    const std::uint16_t start_disk = r.u16(at + 34);
    e.local_offset = r.u32(at + 42);
    if (directory_end - at - central_header_size < name_length + extra_length + comment_length)
      bad_zip("the central directory is truncated");
    e.raw_name = r.bytes(at + central_header_size, name_length);
    e.name = decode_name(e.raw_name, e.flags);
    apply_zip64_extra(r.bytes(at + central_header_size + name_length, extra_length), e, e.size == 0xFFFFFFFF,
                      e.compressed_size == 0xFFFFFFFF, e.local_offset == 0xFFFFFFFF);
    if (start_disk != 0 && start_disk != 0xFFFF) bad_zip("multi-disk archives are not supported");
    at += central_header_size + name_length + extra_length + comment_length;
    members.push_back(std::move(e));
  }

  // Every member: supported, its local header sound, its data inside the archive.
  for (central_entry& e : members) {
    const std::string where = " (member '" + printable(e.name, 100) + "')";
    if (e.flags & 0x41) bad_zip("encrypted members are not supported" + where);
    if (e.method != 0 && e.method != 8)
      bad_zip("compression method " + std::to_string(e.method) + " is not supported (stored and deflated are)" + where);
    if (e.local_offset > directory_offset || directory_offset - e.local_offset < local_header_size)
      bad_zip("a local header offset lies outside the archive" + where);
    if (r.u32(e.local_offset) != local_signature) bad_zip("bad local header signature" + where);
    const std::uint64_t name_length = r.u16(e.local_offset + 26), extra_length = r.u16(e.local_offset + 28);
    e.data_offset = e.local_offset + local_header_size + name_length + extra_length;
    if (e.data_offset > directory_offset || e.compressed_size > directory_offset - e.data_offset)
      bad_zip("member data runs past the start of the central directory" + where);
    const auto local_name = r.bytes(e.local_offset + local_header_size, name_length);
    if (!std::equal(local_name.begin(), local_name.end(), e.raw_name.begin(), e.raw_name.end()))
      bad_zip("the file name in the central directory and the local header differ" + where);
    if (e.method == 0 && e.size != e.compressed_size)
      bad_zip("a stored member's sizes differ (" + std::to_string(e.size) + " and " + std::to_string(e.compressed_size) + ")" + where);
    if (e.method == 8 && e.size / max_deflate_ratio > e.compressed_size + 1)
      bad_zip("the declared size " + std::to_string(e.size) + " cannot come from " + std::to_string(e.compressed_size) +
              " deflated bytes (a zip bomb?)" + where);
  }
  // Members may not share bytes (overlapping members are how the worst zip bombs work).
  std::vector<const central_entry*> by_offset;
  for (const central_entry& e : members) by_offset.push_back(&e);
  std::sort(by_offset.begin(), by_offset.end(),
            [](const central_entry* a, const central_entry* b) { return a->local_offset < b->local_offset; });
  for (std::size_t i = 1; i < by_offset.size(); ++i)
    if (by_offset[i]->local_offset < by_offset[i - 1]->data_offset + by_offset[i - 1]->compressed_size)
      bad_zip("members '" + printable(by_offset[i - 1]->name, 100) + "' and '" + printable(by_offset[i]->name, 100) + "' overlap");

  for (const central_entry& e : members) {
    if (!want(e.name)) continue;
    const auto stored = r.bytes(e.data_offset, e.compressed_size);
    std::vector<std::byte> inflated;
    std::span<const std::byte> data = stored;
    if (e.method == 8) {
      inflated = inflate_member(stored, e.size, e.name);
      data = inflated;
    }
    if (options.verify_crc && crc32_of(data) != e.crc)
      bad_zip("CRC-32 mismatch: the data of member '" + printable(e.name, 100) + "' is corrupt");
    visit(e.name, data);
  }
}

// ---- writer --------------------------------------------------------------------------------

namespace {

class record {
 public:
  void u16(std::uint64_t v) { put(v, 2); }
  void u32(std::uint64_t v) { put(v, 4); }
  void u64(std::uint64_t v) { put(v, 8); }
  void text(std::string_view s) {
    for (const char c : s) bytes.push_back(static_cast<std::byte>(c));
  }
  std::vector<std::byte> bytes;

 private:
  void put(std::uint64_t v, int width) {
    for (int i = 0; i < width; ++i) bytes.push_back(std::byte((v >> (8 * i)) & 0xFF));
  }
};

bool is_ascii(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

}  // namespace

zip_writer::zip_writer(byte_sink& sink, bool force_zip64) : sink_(sink), force_zip64_(force_zip64) {}

void zip_writer::add(std::string_view name, std::span<const std::byte> data, compression method) {
  if (finished_) throw ValueError("zip_writer: add after finish");
  if (name.size() > 0xFFFF) throw ValueError("cannot write .npz: member name longer than 65535 bytes");
  if (!valid_utf8(name)) throw ValueError("cannot write .npz: member name is not valid UTF-8");
  entry e;
  e.name = std::string(name);
  e.size = data.size();
  e.crc = crc32_of(data);
  e.offset = sink_.position();
  std::vector<std::byte> deflated;
  std::span<const std::byte> payload = data;
  if (method == compression::deflated) {
    deflated = deflate_raw(data);
    payload = deflated;
    e.method = 8;
  }
  e.compressed_size = payload.size();
  // The modification time, in MS-DOS form, as zipfile stamps it.
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  const int year = std::clamp(local.tm_year + 1900, 1980, 2107);
  e.date = static_cast<std::uint16_t>(((year - 1980) << 9) | ((local.tm_mon + 1) << 5) | local.tm_mday);
  e.time = static_cast<std::uint16_t>((local.tm_hour << 11) | (local.tm_min << 5) | (local.tm_sec / 2));

  const bool zip64 = force_zip64_ || e.size > zip64_limit || e.compressed_size > zip64_limit;
  record h;
  h.u32(local_signature);
  h.u16(zip64 ? 45 : 20);
  h.u16(is_ascii(name) ? 0 : 0x800);
  h.u16(e.method);
  h.u16(e.time);
  h.u16(e.date);
  h.u32(e.crc);
  h.u32(zip64 ? 0xFFFFFFFF : e.compressed_size);
  h.u32(zip64 ? 0xFFFFFFFF : e.size);
  h.u16(name.size());
  h.u16(zip64 ? 20 : 0);
  h.text(name);
  if (zip64) {
    h.u16(0x0001);
    h.u16(16);
    h.u64(e.size);
    h.u64(e.compressed_size);
  }
  sink_.write(h.bytes);
  sink_.write(payload);
  entries_.push_back(std::move(e));
}

void zip_writer::finish() {
  if (finished_) return;
  finished_ = true;
  const std::uint64_t directory_offset = sink_.position();
  for (const entry& e : entries_) {
    const bool big_size = force_zip64_ || e.size > zip64_limit;
    const bool big_csize = force_zip64_ || e.compressed_size > zip64_limit;
    const bool big_offset = force_zip64_ || e.offset > zip64_limit;
    const int zip64_fields = int(big_size) + int(big_csize) + int(big_offset);
    record h;
    h.u32(central_signature);
    h.u16((3 << 8) | (zip64_fields ? 45 : 20));  // made by: UNIX
    h.u16(zip64_fields ? 45 : 20);
    h.u16(is_ascii(e.name) ? 0 : 0x800);
    h.u16(e.method);
    h.u16(e.time);
    h.u16(e.date);
    h.u32(e.crc);
    h.u32(big_csize ? 0xFFFFFFFF : e.compressed_size);
    h.u32(big_size ? 0xFFFFFFFF : e.size);
    h.u16(e.name.size());
    h.u16(zip64_fields ? 4 + 8 * zip64_fields : 0);
    h.u16(0);  // comment
    h.u16(0);  // disk
    h.u16(0);  // internal attributes
    h.u32(0600u << 16);  // external attributes: a regular file, rw-------
    h.u32(big_offset ? 0xFFFFFFFF : e.offset);
    h.text(e.name);
    if (zip64_fields) {
      h.u16(0x0001);
      h.u16(8 * zip64_fields);
      if (big_size) h.u64(e.size);
      if (big_csize) h.u64(e.compressed_size);
      if (big_offset) h.u64(e.offset);
    }
    sink_.write(h.bytes);
  }
  const std::uint64_t directory_end = sink_.position();
  const std::uint64_t directory_size = directory_end - directory_offset;
  const std::uint64_t count = entries_.size();
  const bool zip64 = force_zip64_ || count >= count_limit || directory_size > zip64_limit || directory_offset > zip64_limit;
  record end;
  if (zip64) {
    end.u32(zip64_end_signature);
    end.u64(zip64_end_size - 12);
    end.u16((3 << 8) | 45);
    end.u16(45);
    end.u32(0);
    end.u32(0);
    end.u64(count);
    end.u64(count);
    end.u64(directory_size);
    end.u64(directory_offset);
    end.u32(zip64_locator_signature);
    end.u32(0);
    end.u64(directory_end);
    end.u32(1);
  }
  end.u32(end_signature);
  end.u16(0);
  end.u16(0);
  end.u16(zip64 ? std::min<std::uint64_t>(count, 0xFFFF) : count);
  end.u16(zip64 ? std::min<std::uint64_t>(count, 0xFFFF) : count);
  end.u32(zip64 ? std::min<std::uint64_t>(directory_size, 0xFFFFFFFF) : directory_size);
  end.u32(zip64 ? std::min<std::uint64_t>(directory_offset, 0xFFFFFFFF) : directory_offset);
  end.u16(0);  // comment
  sink_.write(end.bytes);
}

}  // namespace cupp::io::detail
