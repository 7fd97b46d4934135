import type { RegionName } from '@pixel-atlas/contracts/regions';

export interface RegionContent {
  audience: string;
  description: string;
  notableLocations: [string, string, string, string];
}

/** What each region's hover card says: who the region is for, what it is like, and four places to find there. */
export const REGION_CONTENT: Record<RegionName, RegionContent> = {
  'Knowledge Knolls': {
    audience: 'Researchers, explainers, newsletter writers and anyone who turns hard ideas into clear ones.',
    description:
      'Rolling green hills crowned with reading towers, where long-form essays are traded like treasure and a lantern burns all night over every new deep dive.',
    notableLocations: ['The Footnote Library', 'Citation Spire', 'Deep-Dive Well', 'Lantern of First Principles'],
  },
  'Wellness Wilds': {
    audience: 'Fitness coaches, mindfulness teachers, nutritionists and mental-health advocates.',
    description:
      'Old forest, clear springs and quiet trails. Creators here swap morning routines and breathing exercises, and nobody checks their notifications before sunrise.',
    notableLocations: ['Stillwater Springs', 'The Breathing Grove', 'Sunrise Stretch Trail', 'Hearthroot Sanctuary'],
  },
  'Creator Coast': {
    audience: 'YouTubers, podcasters, video essayists and every creator building an audience from scratch.',
    description:
      'A bustling shoreline of harbours and studios, where thumbnails are painted on the sails and a new channel launches with every tide.',
    notableLocations: ['Thumbnail Harbour', 'The Upload Lighthouse', 'Podcast Pier', 'Algorithm Reef'],
  },
  'Tech Creator Core': {
    audience: 'Developer advocates, tech reviewers, tutorial makers and open-source maintainers.',
    description:
      'A walled city of humming server spires near the heart of the map. Its gates open to anyone who can explain a stack trace kindly.',
    notableLocations: ['The Compiler Citadel', 'Stack Trace Stairs', 'Open Source Forge', 'Benchmark Bastion'],
  },
  'Startup Steppes': {
    audience: 'Founders, indie hackers, product builders and the investors who watch them.',
    description:
      'Wide windswept grasslands where caravans of founders pitch their tents, ship fast, pivot faster and race towards the next oasis.',
    notableLocations: ['Runway Ridge', 'Pivot Crossing', 'The MVP Encampment', 'Oasis of Product-Market Fit'],
  },
  'Maker Moorlands': {
    audience: 'Woodworkers, 3D-printing fans, electronics tinkerers, crafters and DIY builders.',
    description:
      'Misty moors lit by forge fires and workshop windows. Everything out here was built by hand, usually twice, and the second one works.',
    notableLocations: ['The Soldering Stones', 'Sawdust Mill', 'Prototype Tor', 'Filament Falls'],
  },
  'Vibe Coding Vale': {
    audience: 'Creative coders, AI tinkerers, live-streaming programmers and anyone who ships by feel.',
    description:
      'A lush valley where code is written to lo-fi beats, prompts drift on the breeze and half-finished side projects bloom like wildflowers.',
    notableLocations: ['Lo-Fi Lagoon', 'The Prompt Orchard', 'Side Project Meadow', 'Ship-It Falls'],
  },
  'Pixel Plains': {
    audience: 'Pixel artists, indie game developers, sprite animators and retro gaming fans.',
    description: 'Sunlit plains drawn sixteen pixels at a time, where every hill was placed by hand and the save points never run out.',
    notableLocations: ['Sprite Sheet Fields', 'The 8-Bit Obelisk', 'Palette Pond', 'Save Point Inn'],
  },
  'Edu Archipelago': {
    audience: 'Teachers, course creators, tutors and lifelong learners.',
    description:
      'A chain of study islands joined by narrow causeways. Each isle teaches its own subject, and ferries full of students hop between them all term long.',
    notableLocations: ['Isle of Open Courses', 'Flashcard Ferry', 'The Syllabus Lighthouse', 'Quiz Cove'],
  },
  'Aesthetic Alley': {
    audience: 'Designers, photographers, illustrators, stylists and mood-board curators.',
    description:
      'A winding avenue of galleries, colour-washed facades and impeccable lighting, where every doorway is framed for a photograph.',
    notableLocations: ['Golden Hour Gallery', 'The Colour Wheel Fountain', 'Moodboard Market', 'Kerning Court'],
  },
  'Forum Fields': {
    audience: 'Community builders, moderators, forum and Discord hosts, and long-time lurkers.',
    description:
      'Open meadows crossed by a thousand footpaths, each one a thread. Great debates meet at the standing stones while moderators keep the peace from their watchtowers.',
    notableLocations: ['The Great Thread Stones', 'Moderator Watchtower', 'Upvote Orchard', "Lurker's Hollow"],
  },
  'Influencer Isles': {
    audience: 'Lifestyle influencers, brand ambassadors, short-form video stars and trendsetters.',
    description:
      'Glittering islands ringed by turquoise water and ring lights. Trends wash ashore every morning and are gone again by evening.',
    notableLocations: ['Ring Light Lagoon', 'The Trending Tides', 'Collab Cove', 'Follower Falls'],
  },
  'Explorer Expanse': {
    audience: 'Travel vloggers, digital nomads, outdoor adventurers and map lovers.',
    description:
      'An untamed frontier of canyons, dunes and unmapped ridges on the southern edge of the atlas, waiting for whoever packs the lightest bag.',
    notableLocations: ["Wanderer's Gate", 'The Uncharted Dunes', "Nomad's Rest", 'Compass Rose Canyon'],
  },
};
