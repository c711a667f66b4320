import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'collections' })
export class CollectionEntity {
  @PrimaryColumn({ type: 'varchar', length: 253 }) slug!: string;
  @Column({ type: 'text' }) title!: string;
  @Column({ type: 'text' }) image!: string;
  @Column({ type: 'text' }) website!: string;
  @Column({ type: 'text', name: 'contact_email' }) contactEmail!: string;
  @Column({ type: 'text', name: 'brief_description' }) briefDescription!: string;
  @Column({ type: 'text', name: 'long_description' }) longDescription!: string;
  @Column({ type: 'varchar', length: 32 }) type!: string;
  @Column({ type: 'varchar', length: 16 }) tier!: string;
  @Column({ type: 'text', name: 'collection_file' }) collectionFile!: string;
}
