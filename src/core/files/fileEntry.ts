import { plainConstructor } from '../plainConstructor';
import { ResourceEntry } from '../resource';

/**
 * A listed file's entry as the index builds it, and as a listing rebuilds it with its ranking
 * annotations (`withPriority`): one constructor for both, so both keep one shape and one key
 * order (see `plainConstructor` for why not a literal).
 */
export const FileEntry = plainConstructor<[string, string, string | undefined, number | undefined, ResourceEntry['annotations']], ResourceEntry>(function (uri, name, mimeType, size, annotations) {
	this.uri = uri;
	this.name = name;
	this.mimeType = mimeType;
	this.size = size;
	this.annotations = annotations;
});

/** The keys of a `FileEntry`, in its order. */
export const FILE_ENTRY_KEYS: readonly string[] = ['uri', 'name', 'mimeType', 'size', 'annotations'];
